public import Foundation

/// One post of an event to a webhook endpoint and what came of it, for the operator to see (the console's webhook
/// page, `GET /api/v1/webhooks`).
public struct WebhookAttempt: Sendable, Equatable {
    /// What came of a post.
    public enum Outcome: String, Sendable, CaseIterable {
        /// 2xx: delivered.
        case delivered
        /// Another answer: the receiver refused the event; not retried.
        case refused
        /// A timeout, a connection error, 408, 429 or 5xx: tried again at ``WebhookAttempt/nextAttemptAt``.
        case retrying
        /// Still failing when its retry window ended: given up on.
        case abandoned
    }

    /// The endpoint's URL.
    public var endpoint: String
    /// The event posted.
    public var eventID: Int64
    /// Its type.
    public var eventType: String
    /// When it was posted.
    public var attemptedAt: Date
    /// What came of it.
    public var outcome: Outcome
    /// The receiver's HTTP status, when it answered.
    public var status: Int?
    /// Why it failed, when it did.
    public var detail: String?
    /// When it is tried again (``Outcome/retrying``).
    public var nextAttemptAt: Date?

    /// Creates an attempt.
    public init(endpoint: String, eventID: Int64, eventType: String, attemptedAt: Date, outcome: Outcome,
                status: Int? = nil, detail: String? = nil, nextAttemptAt: Date? = nil) {
        self.endpoint = endpoint
        self.eventID = eventID
        self.eventType = eventType
        self.attemptedAt = attemptedAt
        self.outcome = outcome
        self.status = status
        self.detail = detail
        self.nextAttemptAt = nextAttemptAt
    }
}

/// The recent posts to each webhook endpoint, and the operator's request to retry a failing one now, shared by every
/// server process (the one delivering may not be the one the operator asks).
public protocol WebhookAttemptStore: Sendable {
    /// Records a post, keeping the newest `keep` of its endpoint.
    func recordWebhookAttempt(_ attempt: WebhookAttempt, keep: Int) async throws
    /// The newest posts to an endpoint, newest first.
    func webhookAttempts(endpoint: String, limit: Int) async throws -> [WebhookAttempt]
    /// Asks the process delivering to `endpoint` to retry now instead of waiting out its backoff.
    func requestWebhookRetry(endpoint: String, at: Date) async throws
    /// When a retry was last asked for, if ever.
    func webhookRetryRequested(endpoint: String) async throws -> Date?
}

/// The event log of one pass or order, newest first: its history.
public protocol ItemEventStore: Sendable {
    /// The events about one item, newest first.
    /// - Parameters:
    ///   - typeIdentifier: Its pass or order type identifier.
    ///   - identifier: Its serial number or order identifier.
    ///   - limit: At most this many.
    func events(typeIdentifier: String, identifier: String, limit: Int) async throws -> [WalletEvent]
}
