public import Foundation

/// Where each webhook endpoint's delivery stands, kept beside the event log so every server process shares it: the
/// cursor of the last event delivered, and a lease naming the one process delivering (so no event is sent by two
/// processes at once, and a crashed sender's lease runs out and another process continues from the cursor).
public protocol WebhookOutboxStore: Sendable {
    /// Takes the endpoint's delivery lease for `owner` until `now + lease`, or renews it when `owner` holds it. An
    /// endpoint seen for the first time starts at `start` (the end of the log: it gets the events recorded from then on).
    /// - Returns: The cursor to deliver after, or `nil` when another owner's lease is still running.
    func leaseWebhookDelivery(endpoint: String, owner: String, start: EventCursor, now: Date, lease: TimeInterval)
        async throws -> EventCursor?

    /// Records that every event up to `cursor` was delivered (or given up on), and renews the lease.
    /// - Returns: Whether `owner` still held the lease (when not, nothing was written: another process took over).
    func saveWebhookCursor(endpoint: String, owner: String, cursor: EventCursor, now: Date, lease: TimeInterval)
        async throws -> Bool

    /// Gives the lease up (a process shutting down), so another process continues at once.
    func releaseWebhookDelivery(endpoint: String, owner: String) async throws

    /// The cursor of the last event in the log (``EventCursor/start`` when it is empty).
    func latestEventCursor() async throws -> EventCursor
}
