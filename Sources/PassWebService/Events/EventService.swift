public import Foundation
public import PassStore

/// The event log as the issuer API reads it (`GET /api/v1/events`): pages in commit order after a cursor.
public struct EventService: Sendable {
    /// A page of events and the cursor to ask for the next one with.
    public struct Page: Sendable {
        public var events: [WalletEvent]
        /// The last event's cursor, or the cursor asked with when the page is empty: always present, so a client polls
        /// with it and gets only newer events.
        public var nextCursor: String
        /// The cursor asked with (the start of the log when none was given).
        public var after: String = EventCursor.start.description
        /// Whether the page holds as many events as asked for (more may follow at once).
        public var isFull = false

        /// The page as a caller that sees only some of the events sees it (an API key: its identifiers' events).
        ///
        /// The cursor moves past events the caller does not see only when the page was full, so that a busy log of
        /// others' events cannot hold the caller back; at the end of the log it stays after the last event the caller
        /// saw (an empty page keeps the cursor it was asked with), so it says nothing of the others' events there.
        public func visible(_ shown: (WalletEvent) -> Bool) -> Page {
            let kept = events.filter(shown)
            let cursor = isFull ? nextCursor : (kept.last?.cursor.description ?? after)
            return Page(events: kept, nextCursor: cursor, after: after, isFull: isFull)
        }
    }

    /// The largest page.
    public static let maximumPageSize = 1_000
    /// The page size when none is asked for.
    public static let defaultPageSize = 100

    private let store: any EventStore

    /// Creates the service over a store's event log.
    public init(store: any EventStore) {
        self.store = store
    }

    /// Events after a cursor.
    /// - Parameters:
    ///   - after: The `nextCursor` of the previous page, `latest` for the end of the log as it is now (an empty page),
    ///     or `nil` for the start of the log.
    ///   - types: Event types to keep (each may be a comma-separated list); every type when empty.
    ///   - limit: The page size, 1 to ``maximumPageSize`` (default ``defaultPageSize``).
    /// - Throws: ``IssuerError`` 400 naming `after`, `type` or `limit` when one is malformed.
    public func events(after: String?, types: [String], limit: String?) async throws -> Page {
        // Every parameter checked first, `after=latest` included: its empty page is no reason to take a wrong one.
        var wanted: Set<String> = []
        for name in types.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let name = name.trimmingCharacters(in: .whitespaces)
            guard WalletEventType(rawValue: name) != nil else {
                throw IssuerError.badQuery(
                    "type", "\"\(name)\" is not an event type; one of "
                        + WalletEventType.allCases.map(\.rawValue).joined(separator: ", "))
            }
            wanted.insert(name)
        }
        var count = Self.defaultPageSize
        if let limit {
            guard let value = Int(limit), (1...Self.maximumPageSize).contains(value) else {
                throw IssuerError.badQuery("limit", "a whole number from 1 to \(Self.maximumPageSize)")
            }
            count = value
        }
        var cursor = EventCursor.start
        if after == "latest" {
            // The end of the log as it is now: an empty page whose cursor a reader follows for what happens next.
            guard let outbox = store as? any WebhookOutboxStore else {
                throw IssuerError.badQuery("after", "this store cannot say where its log ends")
            }
            let latest = try await outbox.latestEventCursor().description
            return Page(events: [], nextCursor: latest, after: latest)
        } else if let after {
            guard let parsed = EventCursor(after) else {
                throw IssuerError.badQuery("after", "not a cursor this server gave (a nextCursor from GET /api/v1/events)")
            }
            cursor = parsed
        }
        let events = try await store.events(after: cursor, types: wanted, limit: count)
        return Page(events: events, nextCursor: (events.last?.cursor ?? cursor).description, after: cursor.description,
                    isFull: events.count == count)
    }

    /// The events about one pass or order, newest first: its history (versions, devices, redemptions).
    /// - Parameter limit: The page size, 1 to ``maximumPageSize`` (default ``defaultPageSize``).
    /// - Throws: ``IssuerError`` 400 naming `limit`; 404 when the store keeps no history by item.
    public func history(typeIdentifier: String, identifier: String, limit: String?) async throws -> [WalletEvent] {
        var count = Self.defaultPageSize
        if let limit {
            guard let value = Int(limit), (1...Self.maximumPageSize).contains(value) else {
                throw IssuerError.badQuery("limit", "a whole number from 1 to \(Self.maximumPageSize)")
            }
            count = value
        }
        guard let items = store as? any ItemEventStore else { throw IssuerError.notFound }
        return try await items.events(typeIdentifier: typeIdentifier, identifier: identifier, limit: count)
    }
}
