public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore {
    private static let endedWithHeldPushes = """
        SELECT id FROM campaigns WHERE pushes_held > 0 AND state IN ('done', 'cancelled', 'failed')
        ORDER BY sequence LIMIT 1
        """

    /// Queues up to `limit` pushes held by the oldest ended campaign that holds any. The campaign's row is locked
    /// for the transaction and skipped by other instances releasing at the same time, so each push is queued once.
    ///
    /// A held push is a row of `campaign_pushes`; releasing it deletes the row and queues the push naming the
    /// campaign (`push_queue.campaigns`), or, when the device's push is queued already, bumps its generation and adds
    /// the campaign to it. One statement: no row is read into the process.
    /// - Parameters:
    ///   - limit: The most pushes to queue.
    ///   - now: When they are queued.
    /// - Returns: How many were queued (0 when no ended campaign holds any, or another instance is releasing them).
    public func releaseCampaignPushes(limit: Int, now: Date) async throws -> Int {
        guard !holdsOrders else { return 0 }
        // Asked by every process after each campaign and poll: one read while nothing is held, no transaction.
        guard try await !rows(PostgresQuery(unsafeSQL: Self.endedWithHeldPushes)).isEmpty else { return 0 }
        let queue = ItemTables.passes.pushQueue
        let limit = max(1, limit)
        return try await transaction { connection in
            let picked = try await connection.query(
                PostgresQuery(unsafeSQL: Self.endedWithHeldPushes + " FOR UPDATE SKIP LOCKED"), logger: logger
            ).collect()
            guard let id = try picked.first?.decode(String.self) else { return 0 }
            // The queued entries these pushes join are locked first, in id order, as a change's bump and the
            // dispatcher's completion lock them; the new ones are inserted in token order, as a bump inserts them. An
            // upsert locking them in the order it meets them could hold one a completion waits for while waiting for
            // another the completion holds: a deadlock, and a push sent twice or a release done again.
            _ = try await connection.query("""
                SELECT q.id FROM \(unescaped: queue) q JOIN (
                    SELECT push_token, pass_type_identifier FROM campaign_pushes WHERE campaign_id = \(id)
                    ORDER BY push_token, pass_type_identifier LIMIT \(limit)
                ) h ON q.push_token = h.push_token AND q.pass_type_identifier = h.pass_type_identifier
                ORDER BY q.id FOR UPDATE OF q
                """, logger: logger).collect()
            // The first `limit` held rows in key order, deleted by their row address (the campaign has ended and its
            // row is locked: nothing else writes them). A join on the key is planned as a scan of the whole table.
            let counted = try await connection.query("""
                WITH released AS (
                    DELETE FROM campaign_pushes WHERE ctid = ANY(ARRAY(
                        SELECT ctid FROM campaign_pushes WHERE campaign_id = \(id)
                        ORDER BY push_token, pass_type_identifier LIMIT \(limit)))
                    RETURNING push_token, pass_type_identifier
                ), queued AS (
                    INSERT INTO \(unescaped: queue) AS q
                        (push_token, pass_type_identifier, generation, attempts, not_before, queued_at, campaigns)
                    SELECT push_token, pass_type_identifier, 1, 0, \(now), \(now), ARRAY[\(id)::text] FROM released
                    ORDER BY push_token, pass_type_identifier
                    ON CONFLICT (push_token, pass_type_identifier) DO UPDATE
                        SET generation = q.generation + 1, queued_at = \(now),
                            campaigns = array_append(q.campaigns, \(id)::text)
                    RETURNING 1
                )
                SELECT COUNT(*) FROM queued
                """, logger: logger).collect()
            let released = Int(try counted.first?.decode(Int64.self) ?? 0)
            // Fewer than asked for: none is left (also when the count had drifted from the rows).
            try await connection.query("""
                UPDATE campaigns SET pushes_held = CASE WHEN \(released) < \(limit) THEN 0
                    ELSE GREATEST(pushes_held - \(released), 0) END
                WHERE id = \(id)
                """, logger: logger)
            return released
        }
    }
}
