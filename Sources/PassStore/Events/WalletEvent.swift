public import Foundation
import Crypto

/// Something that happened to a pass, an order or a campaign, recorded by the store in the same transaction as the
/// change it describes (so an event exists exactly when its change was committed).
///
/// Events are read in commit order through an ``EventCursor``: a reader that has seen every event up to a cursor never
/// later finds a new one before it. ``data`` is a JSON object naming the item (`passTypeIdentifier` and `serialNumber`, or
/// `orderTypeIdentifier` and `orderIdentifier`), the device as a hash (``WalletEventDraft/deviceHash(_:)``, never its
/// library identifier or push token) and what changed.
public struct WalletEvent: Sendable, Equatable {
    /// The event's number, unique in the store.
    public var id: Int64
    /// The position just after this event: read on from it to get only newer events.
    public var cursor: EventCursor
    /// One of ``WalletEventType``'s raw values.
    public var type: String
    /// When the change was made.
    public var createdAt: Date
    /// The event's details, a JSON object.
    public var data: Data

    /// Creates an event.
    public init(id: Int64, cursor: EventCursor, type: String, createdAt: Date, data: Data) {
        self.id = id
        self.cursor = cursor
        self.type = type
        self.createdAt = createdAt
        self.data = data
    }
}

/// A position in the event log, in commit order: `(transaction, id)` ordered by transaction, then id. Stores with one
/// writer number events in commit order and leave `transaction` 0; PostgreSQL, whose concurrent transactions take ids
/// out of commit order, orders by the writing transaction's id and shows only events of transactions older than every
/// one still running.
public struct EventCursor: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var transaction: Int64
    public var id: Int64

    /// Creates a position.
    public init(transaction: Int64 = 0, id: Int64) {
        self.transaction = transaction
        self.id = id
    }

    /// The start of the log.
    public static let start = EventCursor(id: 0)

    /// Reads the text form (``description``): `<id>` or `<transaction>.<id>`, non-negative decimals.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 19 && $0.allSatisfy { ("0"..."9").contains($0) } }),
              let last = Int64(parts[parts.count - 1]), let first = Int64(parts[0])
        else { return nil }
        self.init(transaction: parts.count == 2 ? first : 0, id: last)
    }

    public var description: String { transaction == 0 ? "\(id)" : "\(transaction).\(id)" }

    public static func < (lhs: EventCursor, rhs: EventCursor) -> Bool {
        (lhs.transaction, lhs.id) < (rhs.transaction, rhs.id)
    }
}

/// The kinds of event, as their `type` strings.
public enum WalletEventType: String, Sendable, CaseIterable {
    case passCreated = "pass.created"
    case passRegistered = "pass.registered"
    case passUnregistered = "pass.unregistered"
    case passPersonalized = "pass.personalized"
    case passUpdated = "pass.updated"
    case passVoided = "pass.voided"
    case passUnvoided = "pass.unvoided"
    case passRedeemed = "pass.redeemed"
    case orderCreated = "order.created"
    case orderRegistered = "order.registered"
    case orderUnregistered = "order.unregistered"
    case orderUpdated = "order.updated"
    case campaignFinished = "campaign.finished"
}

/// An event before the store numbers it: its type, the item it is about (the store's index for per-item order) and
/// its data.
public struct WalletEventDraft: Sendable, Equatable {
    public var type: WalletEventType
    /// The pass or order type identifier, when the event is about one item.
    public var typeIdentifier: String?
    /// The serial number or order identifier, when the event is about one item.
    public var identifier: String?
    /// The device's hash, when the event is a device's.
    public var device: String?
    /// The JSON object, keys sorted.
    public var data: Data

    /// Creates a draft.
    public init(type: WalletEventType, typeIdentifier: String?, identifier: String?, device: String? = nil, data: Data) {
        self.type = type
        self.device = device
        self.typeIdentifier = typeIdentifier
        self.identifier = identifier
        self.data = data
    }

    /// A device's identity in events: the first 128 bits of SHA-256 over a fixed label and its library identifier,
    /// in hex. Stable, so analytics can count distinct devices, and not the identifier itself, which authenticates a
    /// device's requests together with a pass's token.
    public static func deviceHash(_ deviceLibraryIdentifier: String) -> String {
        let digest = SHA256.hash(data: Data(("tessera.device:" + deviceLibraryIdentifier).utf8))
        return digest.prefix(16).lowercaseHex
    }

    /// The issuer created an item: its first version, its template and update tag.
    public static func created(_ kind: WalletItemKind, record: PassRecord) -> WalletEventDraft {
        item(kind.created, kind, record.passTypeIdentifier, record.serialNumber, [
            "updateTag": .integer(record.updateTag), "template": .string(record.template),
        ])
    }

    /// A device added an item (its first registration for it on that device).
    public static func registered(_ kind: WalletItemKind, typeIdentifier: String, identifier: String,
                                  deviceLibraryIdentifier: String) -> WalletEventDraft {
        let device = deviceHash(deviceLibraryIdentifier)
        var draft = item(kind.registered, kind, typeIdentifier, identifier, ["device": .string(device)])
        draft.device = device
        return draft
    }

    /// A device removed an item (it unregistered), or APNs said its push token is gone (`reason`).
    public static func unregistered(_ kind: WalletItemKind, typeIdentifier: String, identifier: String,
                                    deviceLibraryIdentifier: String, reason: String) -> WalletEventDraft {
        let device = deviceHash(deviceLibraryIdentifier)
        var draft = item(kind.unregistered, kind, typeIdentifier, identifier, [
            "device": .string(device), "reason": .string(reason),
        ])
        draft.device = device
        return draft
    }

    /// A new version of an item: its update tag, template and the members that changed, and the campaign that made it.
    public static func updated(_ kind: WalletItemKind, record: PassRecord, changed: [String], campaign: String?)
        -> WalletEventDraft
    {
        var members: [String: EventValue] = [
            "updateTag": .integer(record.updateTag), "template": .string(record.template),
            "changed": .strings(changed),
        ]
        if let campaign { members["campaign"] = .string(campaign) }
        return item(kind.updated, kind, record.passTypeIdentifier, record.serialNumber, members)
    }

    /// A pass was voided or unvoided (the state changed), by the issuer or a campaign.
    public static func voided(_ voided: Bool, record: PassRecord, campaign: String?) -> WalletEventDraft {
        var members: [String: EventValue] = ["updateTag": .integer(record.updateTag)]
        if let campaign { members["campaign"] = .string(campaign) }
        return item(voided ? .passVoided : .passUnvoided, .pass, record.passTypeIdentifier, record.serialNumber, members)
    }

    /// The holder personalized a pass: the names of the members given (their values stay in the store).
    public static func personalized(record: PassRecord, fields: [String]) -> WalletEventDraft {
        item(.passPersonalized, .pass, record.passTypeIdentifier, record.serialNumber, [
            "updateTag": .integer(record.updateTag), "fields": .strings(fields),
        ])
    }

    /// The events of one change to an item: `*.updated`, and for a pass `pass.voided`/`pass.unvoided` when the voided
    /// state moved and `pass.personalized` when the change personalized it.
    public static func change(_ kind: WalletItemKind, before: PassRecord, after: PassRecord, campaign: String?)
        -> [WalletEventDraft]
    {
        var changed: [String] = []
        if before.data != after.data { changed.append("data") }
        if before.voided != after.voided { changed.append("voided") }
        if before.personalization != after.personalization { changed.append("personalization") }
        if before.templateVersion != after.templateVersion { changed.append("templateVersion") }
        return change(kind, after: after, changed: changed, personalized: before.personalization == nil,
                      campaign: campaign)
    }

    /// The events of one change to an item, from the names of the members that changed (`data`, `voided`,
    /// `personalization`, `templateVersion`).
    /// - Parameter personalized: Whether the change gave the item its first personalization.
    public static func change(_ kind: WalletItemKind, after: PassRecord, changed: [String], personalized: Bool,
                              campaign: String?) -> [WalletEventDraft]
    {
        var drafts = [updated(kind, record: after, changed: changed, campaign: campaign)]
        guard kind == .pass else { return drafts }
        if changed.contains("voided") { drafts.append(voided(after.voided, record: after, campaign: campaign)) }
        if personalized, let personalization = after.personalization {
            let object = (try? JSONSerialization.jsonObject(with: personalization)) as? [String: Any]
            drafts.append(WalletEventDraft.personalized(record: after, fields: (object?.keys).map { $0.sorted() } ?? []))
        }
        return drafts
    }

    /// A campaign reached a final state.
    public static func campaignFinished(_ campaign: CampaignRecord) -> WalletEventDraft {
        WalletEventDraft(type: .campaignFinished, typeIdentifier: nil, identifier: nil, data: encode([
            "campaign": .string(campaign.id), "state": .string(campaign.state.rawValue),
            "matched": .integer(Int64(campaign.matched)), "changed": .integer(Int64(campaign.changed)),
            "failed": .integer(Int64(campaign.failed)), "pushesQueued": .integer(Int64(campaign.pushesQueued)),
        ]))
    }

    private static func item(_ type: WalletEventType, _ kind: WalletItemKind, _ typeIdentifier: String,
                             _ identifier: String, _ members: [String: EventValue]) -> WalletEventDraft {
        var members = members
        members[kind.typeIdentifierKey] = .string(typeIdentifier)
        members[kind.identifierKey] = .string(identifier)
        return WalletEventDraft(type: type, typeIdentifier: typeIdentifier, identifier: identifier, data: encode(members))
    }

    static func encode(_ members: [String: EventValue]) -> Data {
        EventJSON.object(members)
    }
}

/// A value in an event's data (or another object ``EventJSON`` writes).
public enum EventValue: Encodable, Equatable, Sendable {
    /// A string.
    case string(String)
    /// A whole number.
    case integer(Int64)
    /// An array of strings.
    case strings([String])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        }
    }
}

/// Passes or orders: the two kinds of Wallet item the device protocol serves, and the names their events use.
public enum WalletItemKind: String, Sendable {
    case pass
    case order

    var created: WalletEventType { self == .pass ? .passCreated : .orderCreated }
    var registered: WalletEventType { self == .pass ? .passRegistered : .orderRegistered }
    var unregistered: WalletEventType { self == .pass ? .passUnregistered : .orderUnregistered }
    var updated: WalletEventType { self == .pass ? .passUpdated : .orderUpdated }
    var typeIdentifierKey: String { self == .pass ? "passTypeIdentifier" : "orderTypeIdentifier" }
    var identifierKey: String { self == .pass ? "serialNumber" : "orderIdentifier" }
}
