public import Foundation

/// Redemption at the gate: scans of a pass's barcode counted against its template's rule, once per scan, atomically,
/// whichever server process answers.
///
/// Every scan is logged (the unknown ones too, so a scan costs one write transaction whether or not it names a pass),
/// and a scan with an idempotency key is answered again from the log when the scanner repeats it.
public protocol RedemptionStore: Sendable {
    /// The passes whose data sets this barcode message (the data document's `barcodeMessage`, else the message of its
    /// first `barcodes` entry), at most `limit`, through an index.
    func passes(barcodeMessage: String, limit: Int) async throws -> [PassRecord]

    /// Counts one scan, in one transaction: reads the pass under a lock, decides the result
    /// (``RedemptionAttempt/result(redemptions:voided:)``), and for a valid scan counts it, logs it, records
    /// `pass.redeemed` and, when the rule voids a used-up pass, voids it as a new version with its pushes. A scan of
    /// no pass (``RedemptionAttempt/pass`` `nil`) is logged as `unknown`.
    /// - Throws: ``PassStoreError/idempotencyConflict(_:)`` when the key was used for another scan.
    func redeem(_ attempt: RedemptionAttempt, now: Date) async throws -> RedemptionOutcome

    /// The scan an idempotency key was first used for, answered again (``RedemptionOutcome/replayed``), or `nil` when
    /// the key is new: a scanner's repeat is answered before its pass is looked up again, so a barcode message another
    /// pass has taken since, or a template changed since, does not change the answer.
    /// - Throws: ``PassStoreError/idempotencyConflict(_:)`` when the key was used for another scan.
    func earlierRedemption(idempotencyKey: String, requestHash: String) async throws -> RedemptionOutcome?

    /// How often a pass was redeemed and its first valid redemption, or `nil` when it never was.
    func redemptionSummary(passTypeIdentifier: String, serialNumber: String) async throws -> RedemptionSummary?
}

/// The rule a template sets for its passes.
public struct RedemptionRule: Sendable, Equatable {
    /// The most valid scans a pass has: 1 for `once`, `nil` for a `count` rule without a limit.
    public var limit: Int?
    /// Whether the scan that uses a pass up voids it (a new version, pushed to the holder's devices).
    public var voidsWhenUsedUp: Bool

    /// Creates a rule.
    public init(limit: Int?, voidsWhenUsedUp: Bool) {
        self.limit = limit
        self.voidsWhenUsedUp = voidsWhenUsedUp
    }

    /// Each pass redeems once, and stays valid on the device.
    public static let once = RedemptionRule(limit: 1, voidsWhenUsedUp: false)
}

/// What a scanner asks.
public struct RedemptionAttempt: Sendable, Equatable {
    /// The pass scanned, or `nil` (both) when the scan named none.
    public var passTypeIdentifier: String?
    public var serialNumber: String?
    /// The gate or till, as the scanner names it.
    public var place: String?
    /// The template's rule.
    public var rule: RedemptionRule
    /// Whether the pass's `expirationDate` has passed.
    public var expired: Bool
    /// The scanner's `Idempotency-Key`, and a hash of what it asked, so a repeat is answered again and the same key
    /// on another scan is refused.
    public var idempotencyKey: String?
    public var requestHash: String

    /// Creates an attempt.
    public init(passTypeIdentifier: String?, serialNumber: String?, place: String?, rule: RedemptionRule,
                expired: Bool, idempotencyKey: String?, requestHash: String) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.place = place
        self.rule = rule
        self.expired = expired
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
    }

    /// The answer to a scan of a pass in this state: a used-up pass is `alreadyRedeemed` (also when the rule voided
    /// it, so the gate learns when and where it was used), then `voided`, `expired`, else `valid`.
    public func result(redemptions: Int, voided: Bool) -> RedemptionResult {
        if let limit = rule.limit, redemptions >= limit { return .alreadyRedeemed }
        if voided { return .voided }
        if expired { return .expired }
        return .valid
    }
}

/// The answer to one scan.
public enum RedemptionResult: String, Sendable, CaseIterable {
    case valid
    case alreadyRedeemed
    case voided
    case expired
    case unknown
}

/// How often a pass was redeemed, and where and when first.
public struct RedemptionSummary: Sendable, Equatable {
    public var redemptions: Int
    public var firstRedeemedAt: Date
    public var firstPlace: String?

    /// Creates a summary.
    public init(redemptions: Int, firstRedeemedAt: Date, firstPlace: String?) {
        self.redemptions = redemptions
        self.firstRedeemedAt = firstRedeemedAt
        self.firstPlace = firstPlace
    }
}

/// What a scan did.
public struct RedemptionOutcome: Sendable, Equatable {
    public var result: RedemptionResult
    /// The pass after the scan (voided when this scan used it up under a voiding rule); `nil` for `unknown`.
    public var pass: PassRecord?
    /// Valid scans of the pass so far, this one included.
    public var redemptions: Int
    /// When this scan was made (the first one's time for a repeated idempotency key).
    public var scannedAt: Date
    /// The first valid redemption, when there was one.
    public var first: RedemptionSummary?
    /// Pushes queued by voiding the pass.
    public var pushesQueued: Int
    /// Whether the answer is a repeat of an earlier scan with the same idempotency key.
    public var replayed: Bool

    /// Creates an outcome.
    public init(result: RedemptionResult, pass: PassRecord?, redemptions: Int, scannedAt: Date,
                first: RedemptionSummary?, pushesQueued: Int = 0, replayed: Bool = false) {
        self.result = result
        self.pass = pass
        self.redemptions = redemptions
        self.scannedAt = scannedAt
        self.first = first
        self.pushesQueued = pushesQueued
        self.replayed = replayed
    }
}

extension WalletEventDraft {
    /// A valid scan of a pass: how many times it has been redeemed, where, and the limit of its rule.
    public static func redeemed(record: PassRecord, redemptions: Int, place: String?, limit: Int?) -> WalletEventDraft {
        var members: [String: EventValue] = [
            "passTypeIdentifier": .string(record.passTypeIdentifier), "serialNumber": .string(record.serialNumber),
            "redemptions": .integer(Int64(redemptions)),
        ]
        if let place { members["place"] = .string(place) }
        if let limit { members["limit"] = .integer(Int64(limit)) }
        return WalletEventDraft(type: .passRedeemed, typeIdentifier: record.passTypeIdentifier,
                                identifier: record.serialNumber, data: encode(members))
    }
}
