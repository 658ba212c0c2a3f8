public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: EventStore {
    /// Records events inside the current transaction, in one statement: they commit or roll back with the change
    /// they describe. Their ids come from an identity column without a lock (registrations on many connections do
    /// not wait for each other); each row also keeps its transaction's id, which ``events(after:types:limit:)``
    /// orders by.
    func record(_ drafts: [WalletEventDraft], now: Date, _ connection: PostgresConnection) async throws {
        guard !drafts.isEmpty else { return }
        try await connection.query("""
            INSERT INTO events (type, created_at, type_identifier, identifier, device, data)
            SELECT e.type, \(now), NULLIF(e.type_identifier, ''), NULLIF(e.identifier, ''), NULLIF(e.device, ''),
                e.data::jsonb
            FROM unnest(\(drafts.map(\.type.rawValue))::text[], \(drafts.map { $0.typeIdentifier ?? "" })::text[], \
                \(drafts.map { $0.identifier ?? "" })::text[], \(drafts.map { $0.device ?? "" })::text[], \
                \(drafts.map { String(decoding: $0.data, as: UTF8.self) })::text[])
                WITH ORDINALITY AS e(type, type_identifier, identifier, device, data, n)
            ORDER BY e.n
            """, logger: logger)
    }

    /// Events after a cursor, ordered by (writing transaction, id), and only those of transactions older than every
    /// transaction still running (`pg_snapshot_xmin`): concurrent transactions take ids in one order and commit in
    /// another, and a transaction still running when a reader moved past its id would otherwise never be seen. A
    /// transaction that has not committed yet has an id at or above that horizon, so it sorts after everything
    /// shown so far.
    public func events(after: EventCursor, types: Set<String>, limit: Int) async throws -> [WalletEvent] {
        let rows = try await rows("""
            SELECT id, transaction_id, type, created_at, data::text FROM events
            WHERE (transaction_id, id) > (\(after.transaction), \(after.id))
                AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
                AND (cardinality(\(types.sorted())::text[]) = 0 OR type = ANY(\(types.sorted())::text[]))
            ORDER BY transaction_id, id LIMIT \(max(0, limit))
            """)
        return try rows.map { row in
            let (id, transaction, type, createdAt, data) = try row.decode((Int64, Int64, String, Date, String).self)
            return WalletEvent(id: id, cursor: EventCursor(transaction: transaction, id: id), type: type,
                               createdAt: createdAt, data: Data(data.utf8))
        }
    }

    public func deleteEvents(createdBefore: Date, limit: Int) async throws -> Int {
        // The oldest `limit` events in log order, those of them old enough, already folded into the analytics
        // rollups and posted to every webhook endpoint delivered to since `createdBefore` (an event still held back by
        // a receiver's retries is kept until it is delivered or given up on; an endpoint no process delivers to any
        // more holds nothing back once its lease is that old): a bounded statement.
        let rows = try await rows("""
            DELETE FROM events e WHERE id IN (
                SELECT id FROM events ORDER BY transaction_id, id LIMIT \(max(0, limit))
            ) AND created_at < \(createdBefore)
                AND (transaction_id, id) <= (SELECT cursor_transaction, cursor_id FROM analytics_state WHERE name = 'fold')
                AND NOT EXISTS (
                    SELECT 1 FROM webhook_deliveries w WHERE w.lease_until >= \(createdBefore)
                        AND (w.cursor_transaction, w.cursor_id) < (e.transaction_id, e.id)
                )
            RETURNING 1
            """)
        return rows.count
    }
}

extension PostgresStore {
    /// The kind of item this store holds, for the events' names.
    var itemKind: WalletItemKind { holdsOrders ? .order : .pass }

    /// Version 5, the event log (see ``PassStore/EventStore``): each event with its writing transaction's id
    /// (`pg_current_xact_id()`, as a bigint: a 64-bit, epoch-extended id that never wraps), indexed in log order
    /// and by type. New tables only: instant on a store of any size.
    static let eventTables: [String] = [
        """
        CREATE TABLE events (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            transaction_id bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
            type text NOT NULL,
            created_at timestamptz NOT NULL,
            type_identifier text,
            identifier text,
            device text,
            data jsonb NOT NULL
        )
        """,
        "CREATE INDEX events_position ON events (transaction_id, id)",
        "CREATE INDEX events_type ON events (type, transaction_id, id)",
    ]
}
