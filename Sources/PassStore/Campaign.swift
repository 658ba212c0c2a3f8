public import Foundation

/// Where a campaign is in its life.
public enum CampaignState: String, Sendable, Codable, CaseIterable {
    /// Accepted, waiting for its `scheduledAt`.
    case scheduled
    /// Changing passes.
    case running
    /// Every selected pass was looked at.
    case done
    /// Stopped by the issuer; what changed before stays changed.
    case cancelled
    /// Stopped by an error that is not one pass's (its template vanished, ...).
    case failed

    /// Whether nothing will happen to it any more.
    public var isFinal: Bool { self == .done || self == .cancelled || self == .failed }
}

/// One pass a campaign could not change.
public struct CampaignFailure: Sendable, Equatable, Codable {
    /// The pass's serial number.
    public var serialNumber: String
    /// Why.
    public var reason: String

    /// Creates a failure.
    public init(serialNumber: String, reason: String) {
        self.serialNumber = serialNumber
        self.reason = reason
    }
}

/// A stored campaign: what the issuer asked for and how far it got.
public struct CampaignRecord: Sendable, Equatable {
    /// The campaign's identifier.
    public var id: String
    /// Increasing with every campaign stored: the order of listings.
    public var sequence: Int64
    /// The accepted request (a JSON object: `select`, the action, `message`), as the runner reads it.
    public var specification: Data
    /// SHA-256 of the request body as sent, to tell a repeated `Idempotency-Key` with another body.
    public var requestHash: String
    /// The client's `Idempotency-Key`, if it sent one.
    public var idempotencyKey: String?
    /// Where it is.
    public var state: CampaignState
    /// Passes selected so far.
    public var matched: Int
    /// Passes changed so far (each exactly once).
    public var changed: Int
    /// Passes that could not be changed.
    public var failed: Int
    /// The first 20 failures.
    public var errors: [CampaignFailure]
    /// Pushes owed: one per distinct (push token, pass type identifier) among the changed passes' devices. They are
    /// queued once the campaign has ended, so each device is pushed after all of its passes changed.
    public var pushesQueued: Int
    /// Of those, pushes the dispatcher has finished with (delivered, or dropped because APNs no longer knows the token).
    public var pushesSent: Int
    /// When it was accepted.
    public var createdAt: Date
    /// When it applies.
    public var scheduledAt: Date?
    /// When it started running.
    public var startedAt: Date?
    /// When it finished, was cancelled or failed.
    public var finishedAt: Date?
    /// Where the runner is: an opaque position the runner continues after (`nil` before the first batch).
    public var cursor: String?

    /// Creates a record.
    public init(
        id: String, sequence: Int64, specification: Data, requestHash: String, idempotencyKey: String?,
        state: CampaignState, matched: Int = 0, changed: Int = 0, failed: Int = 0, errors: [CampaignFailure] = [],
        pushesQueued: Int = 0, pushesSent: Int = 0, createdAt: Date, scheduledAt: Date?, startedAt: Date? = nil,
        finishedAt: Date? = nil, cursor: String? = nil
    ) {
        self.id = id
        self.sequence = sequence
        self.specification = specification
        self.requestHash = requestHash
        self.idempotencyKey = idempotencyKey
        self.state = state
        self.matched = matched
        self.changed = changed
        self.failed = failed
        self.errors = errors
        self.pushesQueued = pushesQueued
        self.pushesSent = pushesSent
        self.createdAt = createdAt
        self.scheduledAt = scheduledAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.cursor = cursor
    }

    /// The most failures a campaign keeps in ``errors``.
    public static let keptErrors = 20

    /// `errors` with the campaign's own failure `reason` (a serial number of `""`) as the last: it is always kept,
    /// in place of the last pass's failure when the list is full (the reason the campaign stopped is what its
    /// issuer needs first).
    public static func errors(_ errors: [CampaignFailure], failedBecause reason: String) -> [CampaignFailure] {
        Array(errors.prefix(keptErrors - 1)) + [CampaignFailure(serialNumber: "", reason: reason)]
    }
}

/// A campaign to store.
public struct NewCampaign: Sendable, Equatable {
    public var id: String
    public var specification: Data
    public var requestHash: String
    public var idempotencyKey: String?
    public var scheduledAt: Date?

    /// Creates a new campaign's description.
    public init(id: String, specification: Data, requestHash: String, idempotencyKey: String?, scheduledAt: Date?) {
        self.id = id
        self.specification = specification
        self.requestHash = requestHash
        self.idempotencyKey = idempotencyKey
        self.scheduledAt = scheduledAt
    }
}

/// One pass a campaign batch changes, as read: applied only while its update tag is still `updateTag`.
public struct CampaignPassChange: Sendable, Equatable {
    public var serialNumber: String
    /// The tag of the version the change was computed from.
    public var updateTag: Int64
    /// The new data document, or `nil` to keep it.
    public var data: Data?
    /// The new voided state, or `nil` to keep it.
    public var voided: Bool?
    /// The template content version to build the pass from (a republished template), or `nil` to keep it.
    public var templateVersion: String?
    /// The pass as read (at `updateTag`), for the events the change records.
    public var previous: PassRecord?

    /// Creates a change.
    public init(serialNumber: String, updateTag: Int64, data: Data?, voided: Bool?, templateVersion: String? = nil,
                previous: PassRecord? = nil) {
        self.templateVersion = templateVersion
        self.previous = previous
        self.serialNumber = serialNumber
        self.updateTag = updateTag
        self.data = data
        self.voided = voided
    }
}

extension CampaignPassChange {
    /// The events of writing this change as the version `updateTag` (the pass's new tag) of a campaign's.
    public func events(campaign: String, newUpdateTag: Int64) -> [WalletEventDraft] {
        guard let previous else { return [] }
        var after = previous
        if let data { after.data = data }
        if let voided { after.voided = voided }
        if let templateVersion { after.templateVersion = templateVersion }
        after.updateTag = newUpdateTag
        return WalletEventDraft.change(.pass, before: previous, after: after, campaign: campaign)
    }
}

/// One batch of a campaign, written in one transaction: the passes' new versions, the pushes they owe, the progress.
public struct CampaignBatch: Sendable, Equatable {
    /// The campaign.
    public var campaignID: String
    /// The cursor the batch was read after: the batch is written only while the campaign's cursor is still this one,
    /// so of two processes that read the same batch, one writes it.
    public var expectedCursor: String?
    /// The cursor after the batch.
    public var cursor: String?
    /// The pass type of the changed passes.
    public var passTypeIdentifier: String
    /// The changes.
    public var changes: [CampaignPassChange]
    /// Passes selected in this batch (changed or failed).
    public var matched: Int
    /// Passes that could not be changed.
    public var failures: [CampaignFailure]
    /// Whether this is the last batch: the campaign is then done.
    public var finishes: Bool

    /// Creates a batch.
    public init(
        campaignID: String, expectedCursor: String?, cursor: String?, passTypeIdentifier: String,
        changes: [CampaignPassChange], matched: Int, failures: [CampaignFailure], finishes: Bool
    ) {
        self.campaignID = campaignID
        self.expectedCursor = expectedCursor
        self.cursor = cursor
        self.passTypeIdentifier = passTypeIdentifier
        self.changes = changes
        self.matched = matched
        self.failures = failures
        self.finishes = finishes
    }
}

/// What writing a batch did.
public enum CampaignBatchOutcome: Sendable, Equatable {
    /// Written; the campaign as it is now.
    case written(CampaignRecord)
    /// Another process wrote this batch first (the cursor moved), or the campaign is no longer running: nothing
    /// was written.
    case cursorMoved
    /// A pass changed since it was read: nothing was written; read the batch again.
    case passChanged
}

/// Which passes a campaign batch reads.
public enum CampaignPassSelection: Sendable, Equatable {
    /// The passes made from a template, in serial-number order.
    case template(String)
    /// Given serial numbers of one pass type.
    case serialNumbers(passTypeIdentifier: String, [String])
}

/// The store of campaigns: beside the passes, so a batch's pass changes, pushes and progress commit together.
public protocol CampaignStore: Sendable {
    /// Stores a campaign, or returns the one stored earlier with the same idempotency key.
    /// - Returns: The campaign, and whether it was stored now.
    func insertCampaign(_ campaign: NewCampaign, now: Date) async throws -> (campaign: CampaignRecord, inserted: Bool)

    /// A campaign by its identifier.
    func campaign(id: String) async throws -> CampaignRecord?

    /// The campaign stored with an idempotency key (as ``NewCampaign/idempotencyKey`` holds it), if any.
    func campaign(idempotencyKey: String) async throws -> CampaignRecord?

    /// Campaigns, newest first, as a listing shows them: a specification selecting by serial numbers has their count
    /// (`select.serialNumberCount`) in place of the list (``campaign(id:)`` gives it whole).
    /// - Parameters:
    ///   - state: Only campaigns in this state, when given.
    ///   - limit: The most to return.
    ///   - beforeSequence: Only campaigns stored before this one (the listing's cursor).
    func campaigns(state: CampaignState?, limit: Int, beforeSequence: Int64?) async throws -> [CampaignRecord]

    /// Cancels a scheduled or running campaign.
    /// - Returns: The campaign as it is now (unchanged when it had already finished), or `nil` when there is none.
    func cancelCampaign(id: String, now: Date) async throws -> CampaignRecord?

    /// Running campaigns and scheduled ones due at `now`, oldest first; the due scheduled ones become running.
    func startDueCampaigns(now: Date) async throws -> [CampaignRecord]

    /// When the next scheduled campaign is due, if any.
    func nextScheduledCampaign() async throws -> Date?

    /// Marks a running campaign failed with a reason kept as its one error.
    func failCampaign(id: String, reason: String, now: Date) async throws

    /// Up to `limit` passes of a selection after `cursor` (the last serial number of the previous batch), in
    /// serial-number order, voided ones included.
    func campaignPasses(_ selection: CampaignPassSelection, after cursor: String?, limit: Int) async throws -> [PassRecord]

    /// Writes one batch in one transaction (see ``CampaignBatch``): the passes' new versions (each its own update
    /// tag), one push owed per (push token, pass type) the campaign does not owe one yet, the counts and cursor, and,
    /// for the last batch, the state `done`.
    ///
    /// The owed pushes are held, not queued: a device whose passes fall in several batches would otherwise be pushed
    /// after the first, list only the passes changed by then, and never hear of the rest (the campaign owes it no
    /// second push). ``releaseCampaignPushes(limit:now:)`` queues them once the campaign has ended.
    func writeCampaignBatch(_ batch: CampaignBatch, now: Date) async throws -> CampaignBatchOutcome

    /// Whether a batch handed over while the one before it is still being written gets work done meanwhile (and
    /// waits for that one's commit, in the order handed over), so a campaign runner keeps two batches with the store.
    /// A store with one writer (SQLite) would only queue the second behind the first.
    var overlapsCampaignBatchWrites: Bool { get }

    /// Queues up to `limit` of the pushes held by campaigns that have ended (done, cancelled or failed: every pass
    /// they will change has changed), oldest campaign first, in one transaction. Several processes may call it at
    /// once; each held push is queued once.
    /// - Returns: How many pushes were queued (0 when none are held by an ended campaign).
    func releaseCampaignPushes(limit: Int, now: Date) async throws -> Int
}

extension CampaignStore {
    /// One batch at a time, unless the store says otherwise.
    public var overlapsCampaignBatchWrites: Bool { false }
}
