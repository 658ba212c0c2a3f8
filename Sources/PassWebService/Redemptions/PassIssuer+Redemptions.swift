public import Foundation
import HTTPTypes
import PassBundle
import PassCrypto
public import PassModel
public import PassStore

/// What a scan asked and what it did, as the redemption endpoint answers it.
public struct RedemptionAnswer: Sendable {
    /// The store's outcome.
    public var outcome: RedemptionOutcome
    /// The rule of the pass's template (`nil` for an unknown pass).
    public var rule: RedemptionRule?
}

extension PassIssuer {
    /// The longest barcode message looked up (PDF417 and Aztec hold a few kilobytes at most).
    public static let maximumBarcodeMessageLength = 4096
    /// The longest gate or till name.
    public static let maximumPlaceLength = 200

    /// Redeems a pass at a gate: the pass a scanner read (`barcodeMessage`) or named (`passTypeIdentifier` and
    /// `serialNumber`), counted against its template's rule (``TemplateSettings``) in one store transaction, so two
    /// gates scanning one ticket at once get one `valid`.
    ///
    /// A message or identifiers that name no pass answer `unknown` after the same work as a known pass (one lookup,
    /// one write transaction logging the scan), so the answer's timing does not tell which messages exist.
    /// - Parameters:
    ///   - body: The request body's members: `barcodeMessage`, or `passTypeIdentifier` and `serialNumber`; `place`.
    ///   - idempotencyKey: The scanner's `Idempotency-Key`: a repeat is answered as the first time.
    /// - Throws: ``IssuerError``: 422 naming the member at fault, 409 for a key used with another body or a message
    ///   that several passes carry.
    ///   - visible: The identifiers the caller sees (an API key's scope): another brand's pass is `unknown` to it.
    ///   - caller: The calling API key's id (`nil` for the admin token): its `Idempotency-Key`s are its own.
    public func redeem(
        body: [String: JSONValue], idempotencyKey sentKey: String?, visible: IssuerScope? = nil, caller: String? = nil
    ) async throws -> RedemptionAnswer {
        guard let store = store as? any RedemptionStore else {
            throw IssuerError(status: .notImplemented, description: "this store does not keep redemptions")
        }
        try IdempotencyKey.check(sentKey)
        let idempotencyKey = IdempotencyKey.stored(sentKey, caller: caller)
        for key in body.keys where !["barcodeMessage", "passTypeIdentifier", "serialNumber", "place"].contains(key) {
            throw IssuerError.invalid(
                "\(key): unknown member (known: barcodeMessage, passTypeIdentifier, serialNumber, place)", field: key)
        }
        let place = try Self.text(body["place"], "place", maximum: Self.maximumPlaceLength)
        let hash = Hex.encode(Digest.sha256(try JSONValue.object(body).jsonData(sortedKeys: true, prettyPrinted: false)))
        if let idempotencyKey {
            // A repeat is answered as the first time before anything is looked up again: another pass may carry the
            // message by now, or the template may have changed.
            let earlier: RedemptionOutcome?
            do {
                earlier = try await store.earlierRedemption(idempotencyKey: idempotencyKey, requestHash: hash)
            } catch let error as PassStoreError where error.isIdempotencyConflict {
                throw IdempotencyKey.conflict("Idempotency-Key: already used for another scan")
            }
            if let earlier {
                // The rule as the template sets it now, when it can still be read (the answer shows the limit).
                var rule: RedemptionRule?
                if let pass = earlier.pass { rule = try? await templateEntry(named: pass.template).settings.redemption }
                return RedemptionAnswer(outcome: earlier, rule: rule)
            }
        }
        let pass: PassRecord?
        if let message = try Self.text(body["barcodeMessage"], "barcodeMessage", maximum: Self.maximumBarcodeMessageLength,
                                       controlCharacters: true) {
            guard body["passTypeIdentifier"] == nil, body["serialNumber"] == nil else {
                throw IssuerError.invalid("barcodeMessage: give a barcode message or passTypeIdentifier and serialNumber, not both")
            }
            // No pass carries a NUL (its data is refused with one): a scan of one finds none, without asking a
            // store whose text cannot hold it (PostgreSQL's).
            let found = message.unicodeScalars.contains("\u{0}") ? [] : try await passes(barcodeMessage: message, visible: visible)
            guard found.count < 2 else {
                throw IssuerError(status: .conflict, description: "barcodeMessage: several passes carry this message; "
                                  + "redeem by passTypeIdentifier and serialNumber")
            }
            pass = found.first
        } else {
            guard let type = try Self.text(body["passTypeIdentifier"], "passTypeIdentifier", maximum: PathSegments.maximumLength),
                  let serial = try Self.text(body["serialNumber"], "serialNumber", maximum: PathSegments.maximumLength)
            else {
                throw IssuerError.invalid(body["passTypeIdentifier"] == nil && body["serialNumber"] == nil
                    ? "barcodeMessage: required, or passTypeIdentifier and serialNumber"
                    : "\(body["passTypeIdentifier"] == nil ? "passTypeIdentifier" : "serialNumber"): required with the other")
            }
            pass = visible.map { $0.covers(type) } ?? true
                ? try await self.store.pass(passTypeIdentifier: type, serialNumber: serial) : nil
        }
        let now = now()
        guard let pass else {
            let outcome = try await redeem(
                RedemptionAttempt(passTypeIdentifier: nil, serialNumber: nil, place: place, rule: .once, expired: false,
                                  idempotencyKey: idempotencyKey, requestHash: hash), now: now, in: store)
            return RedemptionAnswer(outcome: outcome, rule: nil)
        }
        let rule = try await redemptionRule(of: pass)
        let attempt = RedemptionAttempt(
            passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber, place: place, rule: rule,
            expired: try await isExpired(pass, at: now), idempotencyKey: idempotencyKey, requestHash: hash)
        let outcome = try await redeem(attempt, now: now, in: store)
        if outcome.pushesQueued > 0 { onPushesQueued() }
        return RedemptionAnswer(outcome: outcome, rule: outcome.replayed && outcome.pass == nil ? nil : rule)
    }

    private func redeem(_ attempt: RedemptionAttempt, now: Date, in store: any RedemptionStore) async throws
        -> RedemptionOutcome
    {
        do {
            return try await store.redeem(attempt, now: now)
        } catch let error as PassStoreError where error.isIdempotencyConflict {
            throw IdempotencyKey.conflict("Idempotency-Key: already used for another scan")
        }
    }

    /// The redemption rule of a pass's template (`.tessera.json`'s `redemption`: `once` unless it says otherwise). A
    /// pass whose template folder was removed (last season's, its tickets still valid) is scanned under the rule of
    /// the version it is pinned to, `once` as stored versions keep no settings: the gate gets a result, not an error
    /// naming a member its request does not have.
    public func redemptionRule(of pass: PassRecord) async throws -> RedemptionRule {
        do {
            return try await templateEntry(named: pass.template).settings.redemption
        } catch let error as IssuerError where error.status == .unprocessableContent {
            return try await templateEntry(for: pass).settings.redemption
        }
    }

    /// How often a pass was redeemed, and when and where first; `nil` when never (or the store keeps no redemptions).
    public func redemptionSummary(of pass: PassRecord) async throws -> RedemptionSummary? {
        guard let store = store as? any RedemptionStore else { return nil }
        return try await store.redemptionSummary(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)
    }

    /// Whether a pass's `expirationDate` (its data's, else its template's) has passed.
    private func isExpired(_ pass: PassRecord, at now: Date) async throws -> Bool {
        let document = try Self.document(pass.data)
        let text: String?
        if let given = document["expirationDate"] {
            text = given.stringValue
        } else {
            text = try await templateEntry(for: pass).builder.template.pass.expirationDate
        }
        guard let text, let date = W3CDate.date(from: text) else { return false }
        return date <= now
    }

    /// An optional text member: a string of 1 to `maximum` characters, without control characters unless
    /// `controlCharacters` (a barcode message: GS1 data separates its elements with GS, U+001D, and a pass's data keeps
    /// them, so a scanner sends them back).
    private static func text(_ value: JSONValue?, _ name: String, maximum: Int, controlCharacters: Bool = false) throws
        -> String?
    {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw IssuerError.invalid("\(name): must be a string, found \(value.kindName)")
        }
        guard !text.isEmpty, text.count <= maximum else {
            throw IssuerError.invalid("\(name): 1-\(maximum) characters\(controlCharacters ? "" : " without control characters")")
        }
        guard controlCharacters || !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw IssuerError.invalid("\(name): 1-\(maximum) characters without control characters")
        }
        return text
    }
}

/// The `Idempotency-Key` header the issuer API honours (campaigns, redemptions).
///
/// Keys are the caller's own: the admin token's and each API key's are kept apart, so two brands' scanners both
/// sending `scan-1` neither replay nor refuse each other's requests, and no caller learns which keys another used.
enum IdempotencyKey {
    /// - Throws: ``IssuerError`` 400 unless the key is 1-255 visible ASCII characters.
    static func check(_ key: String?) throws {
        guard let key else { return }
        guard !key.isEmpty, key.count <= 255,
              key.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x21 && $0.value < 0x7F })
        else {
            throw IssuerError(status: .badRequest, description: "Idempotency-Key: 1-255 visible ASCII characters")
        }
    }

    /// The key as stored: the admin token's as sent (as before API keys existed), an API key's after its id and a
    /// space, which a sent key cannot contain, so no key of one caller is ever another's.
    /// - Parameters:
    ///   - key: The checked key (``check(_:)``).
    ///   - caller: The API key's id; `nil` for the admin token.
    static func stored(_ key: String?, caller: String?) -> String? {
        guard let key, let caller else { return key }
        return "\(caller) \(key)"
    }

    /// The 409 for a key used before with another body.
    static func conflict(_ description: String) -> IssuerError {
        IssuerError(.idempotencyConflict, status: .conflict, description: description)
    }
}

extension PassIssuer {
    /// The passes carrying `message` that the caller sees, at most two (two mean the message is ambiguous). An API
    /// key's scope is applied to what the store reads: other brands' passes carrying the same message (venues that
    /// number tickets alike) are read past until two of the key's own are found or none is left.
    func passes(barcodeMessage message: String, visible: IssuerScope?) async throws -> [PassRecord] {
        guard let store = store as? any RedemptionStore else { return [] }
        var limit = visible == nil ? 2 : 20
        while true {
            let read = try await store.passes(barcodeMessage: message, limit: limit)
            let found = read.filter { visible?.covers($0.passTypeIdentifier) ?? true }
            if found.count >= 2 || read.count < limit { return Array(found.prefix(2)) }
            limit *= 10
        }
    }
}
