public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore {
    /// Queues one push per distinct push token registered for a pass; a push already queued for the same token and
    /// pass type has its generation bumped instead.
    /// - Returns: How many queue entries were added.
    static func queuePushes(
        passTypeIdentifier: String, serialNumber: String, now: Date, _ tables: Tables, _ db: Database
    ) throws -> Int {
        let tokens = """
            SELECT d.push_token FROM \(tables.registrations) r
            JOIN \(tables.devices) d ON d.device_library_identifier = r.device_library_identifier
            WHERE r.pass_type_identifier = ?1 AND r.serial_number = ?2
            """
        // Bump first, so that the entries inserted next are not bumped.
        // The new change gets its own day of tries: the window (queued_at) starts again, the backoff goes on.
        let bump = try db.cachedStatement(sql: """
            UPDATE \(tables.pushQueue) SET generation = generation + 1, queued_at = ?3
            WHERE pass_type_identifier = ?1 AND push_token IN (\(tokens))
            """)
        try bump.execute(arguments: [passTypeIdentifier, serialNumber, now.timeIntervalSince1970])
        let insert = try db.cachedStatement(sql: """
            INSERT INTO \(tables.pushQueue) (push_token, pass_type_identifier, generation, attempts, not_before, queued_at)
            SELECT DISTINCT d.push_token, ?1, 1, 0, ?3, ?3 FROM \(tables.registrations) r
            JOIN \(tables.devices) d ON d.device_library_identifier = r.device_library_identifier
            WHERE r.pass_type_identifier = ?1 AND r.serial_number = ?2
            ON CONFLICT (push_token, pass_type_identifier) DO NOTHING
            """)
        try insert.execute(arguments: [passTypeIdentifier, serialNumber, now.timeIntervalSince1970])
        return db.changesCount
    }

    /// Moves what is owed to a push token a device has just replaced onto its new token, so a change queued before
    /// the device's new registration is pushed to the token it answers now: queued pushes (a claimed one gets a new
    /// generation, so a send to the old token in flight leaves it for the next claim) and the pushes campaigns hold.
    /// An entry the new token already has for a type is kept and the old token's for it dropped: the device gets one
    /// push per type either way. While another device still has the old token, its queued pushes stay and the new
    /// token gets its own (counted for no campaign).
    static func movePushes(from old: String, to new: String, now: Date, _ tables: Tables, _ db: Database) throws {
        let shared = try db.cachedStatement(sql: "SELECT 1 FROM \(tables.devices) WHERE push_token = ? LIMIT 1")
        guard try Int.fetchOne(shared, arguments: [old]) == nil else {
            try db.cachedStatement(sql: """
                INSERT INTO \(tables.pushQueue) (push_token, pass_type_identifier, generation, attempts, not_before, queued_at)
                SELECT ?2, pass_type_identifier, 1, 0, ?3, queued_at FROM \(tables.pushQueue) WHERE push_token = ?1
                ON CONFLICT (push_token, pass_type_identifier) DO NOTHING
                """).execute(arguments: [old, new, now.timeIntervalSince1970])
            return
        }
        try db.cachedStatement(sql: """
            UPDATE OR IGNORE \(tables.pushQueue)
            SET push_token = ?2, generation = generation + 1, claimed_until = NULL, not_before = MIN(not_before, ?3)
            WHERE push_token = ?1
            """).execute(arguments: [old, new, now.timeIntervalSince1970])
        try db.cachedStatement(sql: "DELETE FROM \(tables.pushQueue) WHERE push_token = ?").execute(arguments: [old])
        guard tables.names.kind == ItemTables.passes.kind else { return }
        let holding = "SELECT id FROM campaigns WHERE pushes_held > 0"
        try db.cachedStatement(sql: """
            UPDATE OR IGNORE campaign_pushes SET push_token = ?2 WHERE campaign_id IN (\(holding)) AND push_token = ?1
            """).execute(arguments: [old, new])
        try db.cachedStatement(sql: "DELETE FROM campaign_pushes WHERE campaign_id IN (\(holding)) AND push_token = ?")
            .execute(arguments: [old])
    }

    /// Leases up to `limit` due pushes until `now + lease`, oldest first.
    /// - Parameters:
    ///   - limit: The most pushes to claim.
    ///   - now: The current time.
    ///   - lease: How long the claim lasts, in seconds.
    /// - Returns: The claimed pushes in queue order.
    public func claimPushes(limit: Int, now: Date, lease: TimeInterval) async throws -> [PendingPush] {
        guard limit > 0 else { return [] }
        return try await write { [tables] db in
            let statement = try db.cachedStatement(sql: """
                UPDATE \(tables.pushQueue) SET claimed_until = ?3
                WHERE id IN (
                    SELECT id FROM \(tables.pushQueue)
                    WHERE not_before <= ?1 AND (claimed_until IS NULL OR claimed_until <= ?1)
                    ORDER BY id LIMIT ?2
                )
                RETURNING id, push_token, pass_type_identifier, generation, attempts, queued_at
                """)
            let now = now.timeIntervalSince1970
            let rows = try Row.fetchAll(statement, arguments: [now, limit, now + lease])
            let claimedUntil = Date(timeIntervalSince1970: now + lease)
            return rows.map { row in
                PendingPush(
                    id: row[0], pushToken: row[1], passTypeIdentifier: row[2], generation: row[3], attempts: row[4],
                    queuedAt: Date(timeIntervalSince1970: row[5]), claimedUntil: claimedUntil
                )
            }
            .sorted { $0.id < $1.id }
        }
    }

    /// Removes a sent push, or releases its claim when a newer change bumped its generation meanwhile (see
    /// ``completePushes(_:)``).
    /// - Parameter push: The push as claimed.
    public func completePush(_ push: PendingPush) async throws {
        try await completePushes([push])
    }

    /// Completes several pushes in one write transaction (the dispatcher's whole batch): the entries whose generation
    /// is unchanged are deleted, the others released (unless claimed again since: a newer claim is left alone), and each campaign a deleted pass push names counts one push sent
    /// (see ``PassStore/CampaignRecord/pushesSent``; a released one does not: the change that bumped it is still to be
    /// pushed).
    /// - Parameter pushes: The pushes as claimed.
    public func completePushes(_ pushes: [PendingPush]) async throws {
        guard !pushes.isEmpty else { return }
        try await write { [tables] db in
            // Only the pass queue names campaigns.
            let names = tables.names.kind == ItemTables.passes.kind ? "campaigns" : "NULL"
            let delete = try db.cachedStatement(
                sql: "DELETE FROM \(tables.pushQueue) WHERE id = ? AND generation = ? RETURNING \(names)")
            // Released only while the claim is still this one (see ``PassStore/PendingPush/claimedUntil``).
            let release = try db.cachedStatement(sql: """
                UPDATE \(tables.pushQueue) SET claimed_until = NULL
                WHERE id = ?1 AND (?2 IS NULL OR claimed_until BETWEEN ?2 - 0.001 AND ?2 + 0.001)
                """)
            var sentPerCampaign: [String: Int] = [:]
            let decoder = JSONDecoder()
            for push in pushes {
                guard let deleted = try Row.fetchOne(delete, arguments: [push.id, push.generation]) else {
                    try release.execute(arguments: [push.id, push.claimedUntil?.timeIntervalSince1970])
                    continue
                }
                guard let json = deleted[0] as String? else { continue }
                guard let campaigns = try? decoder.decode([String].self, from: Data(json.utf8)) else {
                    throw PassStoreError.invalidData("push_queue.campaigns: not a JSON array of campaign identifiers")
                }
                for campaign in campaigns { sentPerCampaign[campaign, default: 0] += 1 }
            }
            let count = try db.cachedStatement(sql: """
                INSERT INTO campaign_push_counts (campaign_id, sent) VALUES (?, ?)
                ON CONFLICT (campaign_id) DO UPDATE SET sent = sent + excluded.sent
                """)
            for (campaign, sent) in sentPerCampaign { try count.execute(arguments: [campaign, sent]) }
        }
    }

    /// Puts a push back for a later try. A push queued again since it was claimed (another change, its device's new
    /// token) is only released: the failure was the earlier send's, and the new one goes at once. A push claimed again
    /// since (this claim's lease ran out during the send) is left to the newer claim.
    /// - Parameters:
    ///   - push: The push as claimed.
    ///   - notBefore: When it is due again.
    public func retryPush(_ push: PendingPush, notBefore: Date) async throws {
        try await write { [tables] db in
            let statement = try db.cachedStatement(sql: """
                UPDATE \(tables.pushQueue)
                SET attempts = CASE WHEN generation = ?1 THEN attempts + 1 ELSE attempts END,
                    not_before = CASE WHEN generation = ?1 THEN ?2 ELSE not_before END, claimed_until = NULL
                WHERE id = ?3 AND (?4 IS NULL OR claimed_until BETWEEN ?4 - 0.001 AND ?4 + 0.001)
                """)
            try statement.execute(arguments: [
                push.generation, notBefore.timeIntervalSince1970, push.id, push.claimedUntil?.timeIntervalSince1970,
            ])
        }
    }
}
