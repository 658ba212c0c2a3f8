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
    /// - Parameters:
    ///   - limit: The most pushes to queue.
    ///   - now: When they are queued.
    /// - Returns: How many were queued (0 when no ended campaign holds any, or another instance is releasing them).
    public func releaseCampaignPushes(limit: Int, now: Date) async throws -> Int {
        guard !holdsOrders else { return 0 }
        // Asked by every process after each campaign and poll: one read while nothing is held, no transaction.
        guard try await !rows(PostgresQuery(unsafeSQL: Self.endedWithHeldPushes)).isEmpty else { return 0 }
        let tables = ItemTables.passes
        let limit = max(1, limit)
        return try await transaction { connection in
            let picked = try await connection.query(
                PostgresQuery(unsafeSQL: Self.endedWithHeldPushes + " FOR UPDATE SKIP LOCKED"), logger: logger
            ).collect()
            guard let id = try picked.first?.decode(String.self) else { return 0 }
            let released = try await connection.query("""
                UPDATE campaign_pushes p SET held = false
                FROM (SELECT push_token, pass_type_identifier FROM campaign_pushes
                      WHERE campaign_id = \(id) AND held LIMIT \(limit)) h
                WHERE p.campaign_id = \(id) AND p.push_token = h.push_token
                    AND p.pass_type_identifier = h.pass_type_identifier
                RETURNING p.push_token, p.pass_type_identifier
                """, logger: logger).collect().map { try $0.decode((String, String).self) }
            let tokensByType = Dictionary(grouping: released, by: \.1).mapValues { $0.map(\.0) }
            for (passTypeIdentifier, tokens) in tokensByType.sorted(by: { $0.key < $1.key }) {
                // Bump first, so that the entries inserted next are not bumped (as for one pass's change).
                try await connection.query("""
                    UPDATE \(unescaped: tables.pushQueue) SET generation = generation + 1
                    WHERE pass_type_identifier = \(passTypeIdentifier) AND push_token = ANY(\(tokens))
                    """, logger: logger)
                try await connection.query("""
                    INSERT INTO \(unescaped: tables.pushQueue) (push_token, pass_type_identifier, generation, attempts, not_before, queued_at)
                    SELECT token, \(passTypeIdentifier), 1, 0, \(now), \(now) FROM unnest(\(tokens)::text[]) AS token
                    ON CONFLICT (push_token, pass_type_identifier) DO NOTHING
                    """, logger: logger)
            }
            // Fewer than asked for: none is left (also when the count had drifted from the rows).
            try await connection.query("""
                UPDATE campaigns SET pushes_held = CASE WHEN \(released.count) < \(limit) THEN 0
                    ELSE GREATEST(pushes_held - \(released.count), 0) END
                WHERE id = \(id)
                """, logger: logger)
            return released.count
        }
    }
}
