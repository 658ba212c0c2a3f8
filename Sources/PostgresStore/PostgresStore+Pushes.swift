public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore {
    /// Queues one push per distinct push token registered for a pass; a push already queued for the same token and
    /// pass type has its generation bumped instead.
    /// - Returns: How many queue entries were added.
    func queuePushes(passTypeIdentifier: String, serialNumber: String, now: Date, _ connection: PostgresConnection)
        async throws -> Int
    {
        // Bump first, so that the entries inserted next are not bumped. The new change gets its own day of tries:
        // the window (queued_at) starts again, the backoff goes on.
        // The entries are locked in id order, as the dispatcher's completion and a campaign's release lock them: two
        // of these locking a pass's several devices' entries in other orders would deadlock.
        try await connection.query("""
            UPDATE \(unescaped: tables.pushQueue) SET generation = generation + 1, queued_at = \(now)
            WHERE id IN (
                SELECT id FROM \(unescaped: tables.pushQueue)
                WHERE pass_type_identifier = \(passTypeIdentifier) AND push_token IN (
                    SELECT d.push_token FROM \(unescaped: tables.registrations) r
                    JOIN \(unescaped: tables.devices) d ON d.device_library_identifier = r.device_library_identifier
                    WHERE r.pass_type_identifier = \(passTypeIdentifier) AND r.serial_number = \(serialNumber)
                )
                ORDER BY id FOR UPDATE
            )
            """, logger: logger)
        let inserted = try await connection.query("""
            INSERT INTO \(unescaped: tables.pushQueue) (push_token, pass_type_identifier, generation, attempts, not_before, queued_at)
            SELECT DISTINCT d.push_token, \(passTypeIdentifier), 1, 0, \(now), \(now) FROM \(unescaped: tables.registrations) r
            JOIN \(unescaped: tables.devices) d ON d.device_library_identifier = r.device_library_identifier
            WHERE r.pass_type_identifier = \(passTypeIdentifier) AND r.serial_number = \(serialNumber)
            ORDER BY d.push_token
            ON CONFLICT (push_token, pass_type_identifier) DO NOTHING
            RETURNING id
            """, logger: logger).collect()
        return inserted.count
    }

    /// Leases up to `limit` due pushes until `now + lease`, oldest first. Rows another instance is claiming at the same
    /// moment are skipped (`FOR UPDATE SKIP LOCKED`), so no push is claimed twice.
    /// - Parameters:
    ///   - limit: The most pushes to claim.
    ///   - now: The current time.
    ///   - lease: How long the claim lasts, in seconds.
    /// - Returns: The claimed pushes in queue order.
    public func claimPushes(limit: Int, now: Date, lease: TimeInterval) async throws -> [PendingPush] {
        guard limit > 0 else { return [] }
        let claimedUntil = now.addingTimeInterval(lease)
        let rows = try await rows("""
            UPDATE \(unescaped: tables.pushQueue) SET claimed_until = \(claimedUntil)
            WHERE id IN (
                SELECT id FROM \(unescaped: tables.pushQueue)
                WHERE not_before <= \(now) AND (claimed_until IS NULL OR claimed_until <= \(now))
                ORDER BY id LIMIT \(limit)
                FOR UPDATE SKIP LOCKED
            )
            RETURNING id, push_token, pass_type_identifier, generation, attempts, queued_at
            """)
        return try rows.map { row in
            let (id, token, type, generation, attempts, queuedAt) =
                try row.decode((Int64, String, String, Int64, Int32, Date).self)
            return PendingPush(
                id: id, pushToken: token, passTypeIdentifier: type, generation: generation, attempts: Int(attempts),
                queuedAt: queuedAt, claimedUntil: claimedUntil
            )
        }
        .sorted { $0.id < $1.id }
    }

    /// Removes a sent push, or releases its claim when a newer change bumped its generation meanwhile. A removed
    /// pass push also counts as sent for every campaign its entry names (see ``PassStore/CampaignRecord/pushesSent``);
    /// a released one does not, as the change that bumped it is still to be pushed.
    /// - Parameter push: The push as claimed.
    public func completePush(_ push: PendingPush) async throws {
        try await completePushes([push])
    }

    /// Completes several pushes in one statement (the dispatcher's whole batch): the entries whose generation is
    /// unchanged are deleted, the others released (unless claimed again since), and each campaign a deleted entry
    /// names counts one push sent.
    /// - Parameter pushes: The pushes as claimed.
    public func completePushes(_ pushes: [PendingPush]) async throws {
        guard !pushes.isEmpty else { return }
        let ids = pushes.map(\.id)
        let generations = pushes.map(\.generation)
        // Each claim's end in seconds (-1: not read by a claim, nothing compared), so a release leaves alone an entry
        // claimed again since (see ``PassStore/PendingPush/claimedUntil``).
        let claims = pushes.map { $0.claimedUntil?.timeIntervalSince1970 ?? -1 }
        // Only the pass queue names campaigns.
        let returned = holdsOrders ? "q.id" : "q.id, q.campaigns"
        // The release excludes what the delete returns: one statement never touches a row twice.
        let head: PostgresQuery = """
            WITH done AS (
                DELETE FROM \(unescaped: tables.pushQueue) q USING unnest(\(ids)::bigint[], \(generations)::bigint[]) AS c(id, generation)
                WHERE q.id = c.id AND q.generation = c.generation
                RETURNING \(unescaped: returned)
            ), released AS (
                UPDATE \(unescaped: tables.pushQueue) q SET claimed_until = NULL
                FROM unnest(\(ids)::bigint[], \(claims)::float8[]) AS c(id, claim)
                WHERE q.id = c.id AND q.id NOT IN (SELECT id FROM done) AND (c.claim < 0
                    OR q.claimed_until BETWEEN to_timestamp(c.claim - 0.001) AND to_timestamp(c.claim + 0.001))
            )
            """
        // The entries locked first, in id order (as a change's bump and a campaign's release lock them), then
        // deleted or released: in the order the pushes finished, two of these and a change of a pass with several
        // devices could each hold an entry another waits for.
        let lock: PostgresQuery = "SELECT id FROM \(unescaped: tables.pushQueue) WHERE id = ANY(\(ids)::bigint[]) ORDER BY id FOR UPDATE"
        if holdsOrders {
            try await transaction { connection in
                _ = try await connection.query(lock, logger: logger).collect()
                _ = try await connection.query(PostgresQuery(unsafeSQL: head.sql + " SELECT count(*) FROM done", binds: head.binds),
                                               logger: logger).collect()
            }
        } else {
            // The counts are added in campaign order, so two processes completing pushes lock them in one order.
            try await transaction { connection in
                _ = try await connection.query(lock, logger: logger).collect()
                _ = try await connection.query(PostgresQuery(unsafeSQL: head.sql + """
                    INSERT INTO campaign_push_counts (campaign_id, sent)
                    SELECT campaign, COUNT(*) FROM done, unnest(done.campaigns) AS campaign
                    GROUP BY campaign ORDER BY campaign
                    ON CONFLICT (campaign_id) DO UPDATE SET sent = campaign_push_counts.sent + excluded.sent
                    """, binds: head.binds), logger: logger).collect()
            }
        }
    }

    /// Puts a push back for a later try. A push queued again since it was claimed (another change, its device's new
    /// token) is only released: the failure was the earlier send's, and the new one goes at once. A push claimed again
    /// since (this claim's lease ran out during the send) is left to the newer claim.
    /// - Parameters:
    ///   - push: The push as claimed.
    ///   - notBefore: When it is due again.
    public func retryPush(_ push: PendingPush, notBefore: Date) async throws {
        let claim = push.claimedUntil?.timeIntervalSince1970 ?? -1
        _ = try await rows("""
            UPDATE \(unescaped: tables.pushQueue)
            SET attempts = CASE WHEN generation = \(push.generation) THEN attempts + 1 ELSE attempts END,
                not_before = CASE WHEN generation = \(push.generation) THEN \(notBefore) ELSE not_before END,
                claimed_until = NULL
            WHERE id = \(push.id) AND (\(claim)::float8 < 0
                OR claimed_until BETWEEN to_timestamp(\(claim)::float8 - 0.001) AND to_timestamp(\(claim)::float8 + 0.001))
            """)
    }
}
