public import Foundation

/// The event log: what the stores record alongside their changes (see ``WalletEvent``), read in order by issuers
/// polling `GET /api/v1/events` and kept for a retention period.
///
/// The pass store and the order store of one database share one log: either answers for both.
public protocol EventStore: Sendable {
    /// Events after a position, in commit order (see ``EventCursor``).
    /// - Parameters:
    ///   - after: The cursor of the last event the reader has seen (``EventCursor/start`` for the whole log).
    ///   - types: Only these types (``WalletEventType`` raw values); every type when empty.
    ///   - limit: At most this many.
    func events(after: EventCursor, types: Set<String>, limit: Int) async throws -> [WalletEvent]

    /// Deletes events created before a time, at most `limit` of the oldest in one transaction (so pruning a large
    /// log never holds the writer long).
    /// - Returns: How many were deleted.
    @discardableResult
    func deleteEvents(createdBefore: Date, limit: Int) async throws -> Int
}
