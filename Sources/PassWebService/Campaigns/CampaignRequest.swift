public import Foundation
public import PassModel


/// A campaign as the issuer asks for it (`POST /api/v1/campaigns`), checked member by member: which passes, what
/// to do to them, the lock-screen message and when.
public struct CampaignRequest: Sendable, Equatable {
    /// Which passes.
    public enum Selection: Sendable, Equatable {
        /// Every pass made from a template, or those whose current field values equal `fields`.
        case template(String, fields: [String: JSONValue])
        /// Given serial numbers of one pass type.
        case serialNumbers(passTypeIdentifier: String, [String])
    }

    /// What happens to each selected pass.
    public enum Action: Sendable, Equatable {
        /// Merged into the pass's data as `PATCH /api/v1/passes/...` merges its `data`.
        case data([String: JSONValue])
        /// A new version built from the template's current content, with the pass's own data.
        case republishTemplate
        /// Voided.
        case void
        /// Voided no more (selects only voided passes).
        case unvoid

        var name: String {
            switch self {
            case .data: "data"
            case .republishTemplate: "republishTemplate"
            case .void: "void"
            case .unvoid: "unvoid"
            }
        }
    }

    /// Which passes.
    public var selection: Selection
    /// Whether voided passes are selected too (never for `unvoid`, which selects only them).
    public var includeVoided: Bool
    /// What happens to them.
    public var action: Action
    /// What Wallet shows on the lock screen for this change.
    public var message: String?
    /// When it applies; `nil` for now.
    public var scheduledAt: Date?
    /// For `republishTemplate` over a template, to run now: the version its passes move to, fixed when the campaign
    /// is accepted (the current content's then), so every server process moves them to that one, however recently
    /// each read the template's folder. Kept in the stored campaign only: a request cannot set it.
    public var templateVersion: String?
    /// For a selection by template: the pass type the template's passes were signed as when the campaign was
    /// accepted. Its passes are the campaign's, and only they: a name later another brand's (a folder moved to
    /// another identity) leaves the campaign to the brand that made it. Kept in the stored campaign only.
    public var templatePassType: String?

    /// The most serial numbers one campaign names.
    public static let maximumSerialNumbers = 100_000
    /// The longest message, in characters.
    public static let maximumMessageLength = 500
    /// How far in the past `scheduledAt` may be (clocks differ a little): later than this is refused.
    public static let pastTolerance: TimeInterval = 60

    private static let members: Set<String> = ["select", "data", "republishTemplate", "void", "unvoid", "message", "scheduledAt"]
    /// What only a stored campaign's specification holds (fixed at acceptance).
    private static let storedMembers: Set<String> = ["templateVersion", "templatePassType"]
    private static let selectMembers: Set<String> = ["template", "passTypeIdentifier", "serialNumbers", "fields", "includeVoided"]

    /// Checks a request body's members.
    /// - Parameters:
    ///   - body: The body's members.
    ///   - now: The time the request arrived (for `scheduledAt`).
    ///   - stored: Whether it is a stored campaign's ``specification`` (which may hold ``templateVersion``).
    /// - Throws: ``IssuerError`` (422) naming the member at fault.
    public init(_ body: [String: JSONValue], now: Date, stored: Bool = false) throws {
        if stored, case .string(let version)? = body["templateVersion"] { templateVersion = version }
        if stored, case .string(let type)? = body["templatePassType"] { templatePassType = type }
        for key in body.keys.sorted()
        where !Self.members.contains(key) && !(stored && Self.storedMembers.contains(key)) {
            throw IssuerError.invalid(
                "\(Self.printable(key)): unknown member (expected \(Self.members.sorted().joined(separator: ", ")))",
                field: Self.printable(key))
        }
        guard let selectValue = body["select"] else {
            throw IssuerError.invalid("select: required: {\"template\": ...} or {\"passTypeIdentifier\": ..., \"serialNumbers\": [...]}")
        }
        guard case .object(let select) = selectValue else {
            throw IssuerError.invalid("select: must be an object, found \(selectValue.kindName)")
        }
        for key in select.keys.sorted() where !Self.selectMembers.contains(key) {
            throw IssuerError.invalid("select.\(Self.printable(key)): unknown member (expected \(Self.selectMembers.sorted().joined(separator: ", ")))")
        }
        switch (select["template"], select["serialNumbers"]) {
        case (.some, .some):
            throw IssuerError.invalid("select: either template or passTypeIdentifier with serialNumbers, not both")
        case (.some(let value), nil):
            guard case .string(let name) = value, !name.isEmpty else {
                throw IssuerError.invalid("select.template: must be a template's name, found \(value.kindName)")
            }
            if select["passTypeIdentifier"] != nil {
                throw IssuerError.invalid("select.passTypeIdentifier: only with serialNumbers (a template names its own)")
            }
            var fields: [String: JSONValue] = [:]
            if let value = select["fields"] {
                guard case .object(let given) = value, !given.isEmpty else {
                    throw IssuerError.invalid("select.fields: must be a non-empty object of field key to value")
                }
                for (key, value) in given.sorted(by: { $0.key < $1.key }) {
                    switch value {
                    case .string, .number, .integer: continue
                    default:
                        throw IssuerError.invalid("select.fields.\(Self.printable(key)): must be text or a number, found \(value.kindName)")
                    }
                }
                fields = given
            }
            selection = .template(name, fields: fields)
        case (nil, .some(let value)):
            guard case .string(let passType)? = select["passTypeIdentifier"] else {
                throw IssuerError.invalid("select.passTypeIdentifier: required with serialNumbers, as text")
            }
            guard PathSegments.isValidPassTypeIdentifier(passType) else {
                throw IssuerError.invalid("select.passTypeIdentifier: not a pass type identifier")
            }
            guard case .array(let items) = value, !items.isEmpty else {
                throw IssuerError.invalid("select.serialNumbers: must be a non-empty array of serial numbers")
            }
            guard items.count <= Self.maximumSerialNumbers else {
                throw IssuerError.invalid("select.serialNumbers: \(items.count) serial numbers; at most \(Self.maximumSerialNumbers) (select by template or field values for more)")
            }
            var serials: [String] = []
            serials.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                guard case .string(let serial) = item, PathSegments.isValidSerialNumber(serial) else {
                    throw IssuerError.invalid(
                        "select.serialNumbers[\(index)]: not a serial number (1-\(PathSegments.maximumLength) letters, digits or .-_~:@+=)")
                }
                serials.append(serial)
            }
            if select["fields"] != nil {
                throw IssuerError.invalid("select.fields: only with a template")
            }
            selection = .serialNumbers(passTypeIdentifier: passType, Array(Set(serials)).sorted())
        case (nil, nil):
            throw IssuerError.invalid("select: needs template, or passTypeIdentifier with serialNumbers")
        }
        switch select["includeVoided"] {
        case nil, .null?: includeVoided = false
        case .bool(let value)?: includeVoided = value
        case let other?: throw IssuerError.invalid("select.includeVoided: must be true or false, found \(other.kindName)")
        }

        var actions: [Action] = []
        if let value = body["data"] {
            guard case .object(let patch) = value, !patch.isEmpty else {
                throw IssuerError.invalid("data: must be a non-empty object, merged into each pass's data")
            }
            actions.append(.data(patch))
        }
        for (key, action) in [("republishTemplate", Action.republishTemplate), ("void", .void), ("unvoid", .unvoid)] {
            guard let value = body[key] else { continue }
            guard value == .bool(true) else {
                throw IssuerError.invalid("\(key): must be true when given, found \(value == .bool(false) ? "false" : value.kindName)")
            }
            actions.append(action)
        }
        guard actions.count == 1, let action = actions.first else {
            throw IssuerError.invalid(actions.isEmpty
                ? "data: one action is required: data, republishTemplate, void or unvoid"
                : "\(actions[1].name): one action per campaign, found \(actions.map(\.name).joined(separator: " and "))")
        }
        self.action = action
        if action == .unvoid, includeVoided {
            throw IssuerError.invalid("select.includeVoided: unvoid selects only voided passes")
        }

        switch body["message"] {
        case nil, .null?: message = nil
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw IssuerError.invalid("message: must not be empty") }
            guard trimmed.count <= Self.maximumMessageLength else {
                throw IssuerError.invalid("message: \(trimmed.count) characters; at most \(Self.maximumMessageLength)")
            }
            guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) else {
                throw IssuerError.invalid("message: must not hold control characters")
            }
            message = trimmed
        case let other?: throw IssuerError.invalid("message: must be text, found \(other.kindName)")
        }

        switch body["scheduledAt"] {
        case nil, .null?: scheduledAt = nil
        case .string(let text)?:
            guard let date = RFC3339.date(text) else {
                throw IssuerError.invalid("scheduledAt: not an RFC 3339 date-time with a time zone (2026-12-31T23:00:00Z)")
            }
            guard date >= now.addingTimeInterval(-Self.pastTolerance) else {
                throw IssuerError.invalid("scheduledAt: \(text) is in the past")
            }
            scheduledAt = date
        case let other?: throw IssuerError.invalid("scheduledAt: must be an RFC 3339 date-time, found \(other.kindName)")
        }
    }

    /// The request as stored with the campaign (what the runner reads back through ``init(_:now:)``; the schedule is
    /// kept in the campaign's own column).
    public var specification: JSONValue {
        var select: [String: JSONValue] = [:]
        switch selection {
        case .template(let name, let fields):
            select["template"] = .string(name)
            if !fields.isEmpty { select["fields"] = .object(fields) }
        case .serialNumbers(let passType, let serials):
            select["passTypeIdentifier"] = .string(passType)
            select["serialNumbers"] = .array(serials.map(JSONValue.string))
        }
        if includeVoided { select["includeVoided"] = .bool(true) }
        var body: [String: JSONValue] = ["select": .object(select)]
        switch action {
        case .data(let patch): body["data"] = .object(patch)
        case .republishTemplate: body["republishTemplate"] = .bool(true)
        case .void: body["void"] = .bool(true)
        case .unvoid: body["unvoid"] = .bool(true)
        }
        if let message { body["message"] = .string(message) }
        if let templateVersion { body["templateVersion"] = .string(templateVersion) }
        if let templatePassType { body["templatePassType"] = .string(templatePassType) }
        return .object(body)
    }

    private static func printable(_ key: String) -> String {
        LogRedactor.escapeControlCharacters(key)
    }
}
