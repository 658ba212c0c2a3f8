public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: EventStore {
    /// Records events inside the current write transaction: they commit or roll back with the change they describe,
    /// and SQLite's single writer numbers them in commit order.
    ///
    /// When the analytics fold has already folded every earlier event, these are folded here too, in the same
    /// transaction (``foldRecorded(_:lastID:_:)``): the analytics worker then has nothing to fold, and
    /// takes no turns of the one writer that device registrations wait on.
    /// - Parameter template: The template of the item every draft is about, when the caller has it at hand (otherwise
    ///   the fold reads it for the event types it counts).
    /// A device's registration or removal is recorded through ``record(_:_:)``, with its device.
    static func record(_ drafts: [WalletEventDraft], now: Date, template: String? = nil, _ db: Database) throws {
        try record(drafts.map { RecordedEvent(draft: $0, now: now, template: template) }, db)
    }

    /// An event to record, with its time and, when the caller has it at hand, its item's template.
    struct RecordedEvent {
        var draft: WalletEventDraft
        var now: Date
        var template: String?
        /// The device a `*.registered` or `*.unregistered` event is about (the event itself holds only its hash):
        /// what ``foldRecorded(_:lastID:_:)`` looks the device's registrations up by. Without it, such an event
        /// counts as an install or removal with no change of the active counts.
        var deviceLibraryIdentifier: String? = nil
        /// An install or removal the caller judged itself: a Google Wallet save or delete, whose object has no row in
        /// `registrations` to judge it by. `nil` for the others.
        var judged: RegistrationChange? = nil
    }

    /// What a save or delete the caller judged does to the active counts.
    enum RegistrationChange {
        /// Nothing: a save of what was saved, a delete of what was not (no install or removal either).
        case unchanged
        /// An install or removal, with whether other devices have the pass and the device other passes of the template.
        case changed(otherDevices: Bool, otherPasses: Bool)
    }

    /// Records events, each with its own time, inside the current write transaction (as
    /// ``record(_:now:template:_:)``).
    static func record(_ events: [RecordedEvent], _ db: Database) throws {
        guard !events.isEmpty else { return }
        let caughtUp = try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT (SELECT cursor_id FROM analytics_state WHERE name = 'fold') >= coalesce((SELECT max(id) FROM events), 0)
            """)) ?? false
        let insert = try db.cachedStatement(sql: """
            INSERT INTO events (type, created_at, type_identifier, identifier, device, data) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for event in events {
            let draft = event.draft
            try insert.execute(arguments: [
                draft.type.rawValue, event.now.timeIntervalSince1970, draft.typeIdentifier, draft.identifier,
                draft.device, draft.data,
            ])
        }
        guard caughtUp else { return }
        try foldRecorded(events, lastID: db.lastInsertedRowID, db)
    }

    public func events(after: EventCursor, types: Set<String>, limit: Int) async throws -> [WalletEvent] {
        let list = String(decoding: try JSONEncoder().encode(types.sorted()), as: UTF8.self)
        return try await read { db in
            // Every type: the rowid order from `after`. Some types: through the (type, id) index, each type's run from
            // `after`, merged by id, so a rare type costs its own events, not the log's.
            let sql = types.isEmpty
                ? "SELECT id, type, created_at, data FROM events WHERE id > ?1 ORDER BY id LIMIT ?3"
                : """
                    SELECT id, type, created_at, data FROM events INDEXED BY events_type
                    WHERE type IN (SELECT value FROM json_each(?2)) AND id > ?1 ORDER BY id LIMIT ?3
                    """
            let statement = try db.cachedStatement(sql: sql)
            return try Row.fetchAll(statement, arguments: [after.id, list, max(0, limit)]).map { row in
                WalletEvent(id: row[0], cursor: EventCursor(id: row[0]), type: row[1],
                            createdAt: Date(timeIntervalSince1970: row[2]), data: row[3])
            }
        }
    }

    public func deleteEvents(createdBefore: Date, limit: Int) async throws -> Int {
        try await write { db in
            // The oldest `limit` events by id, those of them old enough, already folded into the analytics rollups
            // and posted to every webhook endpoint delivered to since `createdBefore` (an event still held back by
            // a receiver's retries is kept until it is delivered or given up on; an endpoint no process delivers to
            // any more holds nothing back once its lease is that old): a bounded transaction, no index on time.
            try db.execute(sql: """
                DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT ?1) AND created_at < ?2
                    AND id <= (SELECT cursor_id FROM analytics_state WHERE name = 'fold')
                    AND id <= coalesce((SELECT min(cursor_id) FROM webhook_deliveries WHERE lease_until >= ?2), id)
                """, arguments: [max(0, limit), createdBefore.timeIntervalSince1970])
            return db.changesCount
        }
    }
}

extension SQLiteStore.Tables {
    /// The kind of item, for the events' names.
    var itemKind: WalletItemKind { names.kind == ItemTables.orders.kind ? .order : .pass }
}
