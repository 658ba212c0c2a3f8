public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: WebhookOutboxStore {
    public func leaseWebhookDelivery(endpoint: String, owner: String, start: EventCursor, now: Date,
                                     lease: TimeInterval) async throws -> EventCursor? {
        let until = now.addingTimeInterval(lease)
        let rows = try await rows("""
            INSERT INTO webhook_deliveries AS w (endpoint, cursor_transaction, cursor_id, owner, lease_until)
            VALUES (\(endpoint), \(start.transaction), \(start.id), \(owner), \(until))
            ON CONFLICT (endpoint) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
                WHERE w.owner IS NULL OR w.owner = EXCLUDED.owner OR w.lease_until <= \(now)
            RETURNING w.cursor_transaction, w.cursor_id
            """)
        return try rows.first.map { row in
            let (transaction, id) = try row.decode((Int64, Int64).self)
            return EventCursor(transaction: transaction, id: id)
        }
    }

    public func saveWebhookCursor(endpoint: String, owner: String, cursor: EventCursor, now: Date,
                                  lease: TimeInterval) async throws -> Bool {
        let rows = try await rows("""
            UPDATE webhook_deliveries SET cursor_transaction = \(cursor.transaction), cursor_id = \(cursor.id),
                lease_until = \(now.addingTimeInterval(lease))
            WHERE endpoint = \(endpoint) AND owner = \(owner)
            RETURNING 1
            """)
        return !rows.isEmpty
    }

    public func releaseWebhookDelivery(endpoint: String, owner: String) async throws {
        _ = try await rows("UPDATE webhook_deliveries SET owner = NULL WHERE endpoint = \(endpoint) AND owner = \(owner)")
    }

    /// The last event readable now (see ``events(after:types:limit:)``): a transaction still running has an id at or
    /// above the horizon, so its events come after this cursor.
    public func latestEventCursor() async throws -> EventCursor {
        let rows = try await rows("""
            SELECT transaction_id, id FROM events
            WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
            ORDER BY transaction_id DESC, id DESC LIMIT 1
            """)
        guard let row = rows.first else { return .start }
        let (transaction, id) = try row.decode((Int64, Int64).self)
        return EventCursor(transaction: transaction, id: id)
    }
}

extension PostgresStore {
    /// Version 6, webhook delivery (see ``PassStore/WebhookOutboxStore``): one row per endpoint, its cursor and lease.
    static let webhookTables: [String] = [
        """
        CREATE TABLE webhook_deliveries (
            endpoint text PRIMARY KEY,
            cursor_transaction bigint NOT NULL,
            cursor_id bigint NOT NULL,
            owner text,
            lease_until timestamptz NOT NULL
        )
        """,
    ]
}
