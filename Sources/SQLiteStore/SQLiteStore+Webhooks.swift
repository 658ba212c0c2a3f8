public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: WebhookOutboxStore {
    public func leaseWebhookDelivery(endpoint: String, owner: String, start: EventCursor, now: Date,
                                     lease: TimeInterval) async throws -> EventCursor? {
        try await write { db in
            let row = try Row.fetchOne(db, sql: """
                INSERT INTO webhook_deliveries (endpoint, cursor_transaction, cursor_id, owner, lease_until)
                VALUES (?1, ?2, ?3, ?4, ?6)
                ON CONFLICT (endpoint) DO UPDATE SET owner = ?4, lease_until = ?6
                    WHERE owner IS NULL OR owner = ?4 OR lease_until <= ?5
                RETURNING cursor_transaction, cursor_id
                """, arguments: [endpoint, start.transaction, start.id, owner, now.timeIntervalSince1970,
                                 now.addingTimeInterval(lease).timeIntervalSince1970])
            return row.map { EventCursor(transaction: $0[0], id: $0[1]) }
        }
    }

    public func saveWebhookCursor(endpoint: String, owner: String, cursor: EventCursor, now: Date,
                                  lease: TimeInterval) async throws -> Bool {
        try await write { db in
            try db.execute(sql: """
                UPDATE webhook_deliveries SET cursor_transaction = ?, cursor_id = ?, lease_until = ?
                WHERE endpoint = ? AND owner = ?
                """, arguments: [cursor.transaction, cursor.id, now.addingTimeInterval(lease).timeIntervalSince1970,
                                 endpoint, owner])
            return db.changesCount == 1
        }
    }

    public func releaseWebhookDelivery(endpoint: String, owner: String) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE webhook_deliveries SET owner = NULL WHERE endpoint = ? AND owner = ?",
                           arguments: [endpoint, owner])
        }
    }

    public func latestEventCursor() async throws -> EventCursor {
        try await read { db in
            EventCursor(id: try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM events") ?? 0)
        }
    }
}
