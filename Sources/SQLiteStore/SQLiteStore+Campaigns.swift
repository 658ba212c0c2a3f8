public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: CampaignStore {
    private static let campaignColumns = """
        c.id, c.sequence, c.specification, c.request_hash, c.idempotency_key, c.state, c.matched, c.changed, c.failed, \
        c.errors, c.pushes_queued, c.created_at, c.scheduled_at, c.started_at, c.finished_at, c.cursor, \
        COALESCE((SELECT s.sent FROM campaign_push_counts s WHERE s.campaign_id = c.id), 0)
        """

    private static func campaignRecord(_ row: Row) throws -> CampaignRecord {
        let errors = try JSONDecoder().decode([CampaignFailure].self, from: row[9] as Data)
        func date(_ index: Int) -> Date? { (row[index] as Double?).map(Date.init(timeIntervalSince1970:)) }
        guard let state = CampaignState(rawValue: row[5]) else {
            throw PassStoreError.invalidData("campaigns.state: unknown state \(row[5] as String)")
        }
        return CampaignRecord(
            id: row[0], sequence: row[1], specification: row[2], requestHash: row[3], idempotencyKey: row[4],
            state: state, matched: row[6], changed: row[7], failed: row[8], errors: errors, pushesQueued: row[10],
            pushesSent: row[16], createdAt: Date(timeIntervalSince1970: row[11]), scheduledAt: date(12),
            startedAt: date(13), finishedAt: date(14), cursor: row[15])
    }

    private static func campaign(id: String, _ db: Database) throws -> CampaignRecord? {
        let statement = try db.cachedStatement(sql: "SELECT \(campaignColumns) FROM campaigns c WHERE c.id = ?")
        return try Row.fetchOne(statement, arguments: [id]).map(campaignRecord)
    }

    public func insertCampaign(_ campaign: NewCampaign, now: Date) async throws -> (campaign: CampaignRecord, inserted: Bool) {
        try await write { db in
            if let key = campaign.idempotencyKey,
               let row = try Row.fetchOne(db, sql: "SELECT \(Self.campaignColumns) FROM campaigns c WHERE c.idempotency_key = ?",
                                          arguments: [key]) {
                return (try Self.campaignRecord(row), false)
            }
            try db.execute(sql: """
                INSERT INTO campaigns (id, specification, request_hash, idempotency_key, state, created_at, scheduled_at)
                VALUES (?, ?, ?, ?, 'scheduled', ?, ?)
                """, arguments: [campaign.id, campaign.specification, campaign.requestHash, campaign.idempotencyKey,
                                 now.timeIntervalSince1970, campaign.scheduledAt?.timeIntervalSince1970])
            guard let stored = try Self.campaign(id: campaign.id, db) else {
                throw PassStoreError.unavailable("campaign \(campaign.id) vanished after its insert")
            }
            return (stored, true)
        }
    }

    public func campaign(id: String) async throws -> CampaignRecord? {
        try await read { db in try Self.campaign(id: id, db) }
    }

    public func campaign(idempotencyKey: String) async throws -> CampaignRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.campaignColumns) FROM campaigns c WHERE c.idempotency_key = ?",
                             arguments: [idempotencyKey]).map(Self.campaignRecord)
        }
    }

    /// ``campaignColumns`` with the specification as a listing shows it: a selection by serial numbers (perhaps
    /// 100,000 of them) as their `serialNumberCount`, made by SQLite's JSON functions, so a page of campaigns neither
    /// carries nor has Swift parse every list.
    private static let listedCampaignColumns = campaignColumns.replacingOccurrences(of: "c.specification", with: """
        CASE WHEN json_type(CAST(c.specification AS TEXT), '$.select.serialNumbers') = 'array'
        THEN CAST(json_set(json_remove(CAST(c.specification AS TEXT), '$.select.serialNumbers'), '$.select.serialNumberCount',
                           json_array_length(CAST(c.specification AS TEXT), '$.select.serialNumbers')) AS BLOB)
        ELSE c.specification END
        """)

    public func campaigns(state: CampaignState?, limit: Int, beforeSequence: Int64?) async throws -> [CampaignRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.listedCampaignColumns) FROM campaigns c
                WHERE (?1 IS NULL OR c.state = ?1) AND (?2 IS NULL OR c.sequence < ?2)
                ORDER BY c.sequence DESC LIMIT ?3
                """, arguments: [state?.rawValue, beforeSequence, max(0, limit)]).map(Self.campaignRecord)
        }
    }

    public func cancelCampaign(id: String, now: Date) async throws -> CampaignRecord? {
        try await write { db in
            try db.execute(sql: """
                UPDATE campaigns SET state = 'cancelled', finished_at = ? WHERE id = ? AND state IN ('scheduled', 'running')
                """, arguments: [now.timeIntervalSince1970, id])
            let cancelled = db.changesCount == 1
            let record = try Self.campaign(id: id, db)
            if cancelled, let record { try Self.record([.campaignFinished(record)], now: now, db) }
            return record
        }
    }

    public func startDueCampaigns(now: Date) async throws -> [CampaignRecord] {
        // Asked every half second by every process: a read while there is nothing to do, so an idle server takes no
        // write lock (and a busy one's writers never wait for it).
        let due = try await read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM campaigns WHERE state = 'running')
                    OR EXISTS (SELECT 1 FROM campaigns WHERE state = 'scheduled' AND (scheduled_at IS NULL OR scheduled_at <= ?))
                """, arguments: [now.timeIntervalSince1970]) ?? false
        }
        guard due else { return [] }
        return try await write { db in
            try db.execute(sql: """
                UPDATE campaigns SET state = 'running', started_at = ?1
                WHERE state = 'scheduled' AND (scheduled_at IS NULL OR scheduled_at <= ?1)
                """, arguments: [now.timeIntervalSince1970])
            return try Row.fetchAll(db, sql: """
                SELECT \(Self.campaignColumns) FROM campaigns c WHERE c.state = 'running' ORDER BY c.sequence
                """).map(Self.campaignRecord)
        }
    }

    public func nextScheduledCampaign() async throws -> Date? {
        try await read { db in
            try Double.fetchOne(db, sql: """
                SELECT MIN(COALESCE(scheduled_at, 0)) FROM campaigns WHERE state = 'scheduled'
                """).map(Date.init(timeIntervalSince1970:))
        }
    }

    public func failCampaign(id: String, reason: String, now: Date) async throws {
        try await write { db in
            guard let record = try Self.campaign(id: id, db), !record.state.isFinal else { return }
            let errors = CampaignRecord.errors(record.errors, failedBecause: reason)
            try db.execute(sql: "UPDATE campaigns SET state = 'failed', finished_at = ?, errors = ? WHERE id = ?",
                           arguments: [now.timeIntervalSince1970, try JSONEncoder().encode(errors), id])
            if let failed = try Self.campaign(id: id, db) { try Self.record([.campaignFinished(failed)], now: now, db) }
        }
    }

    public func campaignPasses(_ selection: CampaignPassSelection, after cursor: String?, limit: Int) async throws -> [PassRecord] {
        try await read { db in
            switch selection {
            case .template(let name):
                return try Row.fetchAll(db, sql: """
                    SELECT \(Self.passColumns) FROM passes INDEXED BY passes_template
                    WHERE template = ?1 AND (?2 IS NULL OR serial_number > ?2) ORDER BY serial_number LIMIT ?3
                    """, arguments: [name, cursor, max(0, limit)]).map { Self.passRecord($0) }
            case .serialNumbers(let passTypeIdentifier, let serials):
                let list = String(decoding: try JSONEncoder().encode(serials), as: UTF8.self)
                return try Row.fetchAll(db, sql: """
                    SELECT \(Self.passColumns) FROM passes
                    WHERE pass_type_identifier = ?1 AND serial_number IN (SELECT value FROM json_each(?2))
                        AND (?3 IS NULL OR serial_number > ?3)
                    ORDER BY serial_number LIMIT ?4
                    """, arguments: [passTypeIdentifier, list, cursor, max(0, limit)]).map { Self.passRecord($0) }
            }
        }
    }

    private struct PassChangedSinceRead: Error {}

    public func writeCampaignBatch(_ batch: CampaignBatch, now: Date) async throws -> CampaignBatchOutcome {
        do {
            // The pool's own write, not write(_:): the rollback's marker error must reach the catch below as it is.
            return try await pool.write { [tables] db in
                try db.execute(sql: """
                    UPDATE campaigns SET cursor = ? WHERE id = ? AND state = 'running' AND cursor IS ?
                    """, arguments: [batch.cursor, batch.campaignID, batch.expectedCursor])
                guard db.changesCount == 1 else { return .cursorMoved }
                let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
                let update = try db.cachedStatement(sql: """
                    UPDATE passes SET data = COALESCE(?, data), voided = COALESCE(?, voided),
                        template_version = COALESCE(?, template_version), update_tag = ?,
                        last_modified = MAX(?, last_modified + 1)
                    WHERE pass_type_identifier = ? AND serial_number = ? AND update_tag = ?
                    """)
                // One range of update tags for the batch, in one counter update (as the PostgreSQL store takes it).
                var nextTag: Int64 = 0
                if !batch.changes.isEmpty {
                    guard let last = try Int64.fetchOne(db, sql: """
                        UPDATE counters SET value = value + ? WHERE name = ? RETURNING value
                        """, arguments: [batch.changes.count, tables.names.counter]) else {
                        throw PassStoreError.invalidData("counters: the \(tables.names.counter) row is missing")
                    }
                    nextTag = last - Int64(batch.changes.count) + 1
                }
                // The batch's events in one call: in the same order, and folded into the analytics together.
                var events: [WalletEventDraft] = []
                for change in batch.changes {
                    let tag = nextTag
                    nextTag += 1
                    try update.execute(arguments: [
                        change.data, change.voided, change.templateVersion, tag, seconds, batch.passTypeIdentifier, change.serialNumber,
                        change.updateTag,
                    ])
                    // Rolls the whole batch back: the runner reads it again.
                    guard db.changesCount == 1 else { throw PassChangedSinceRead() }
                    events += change.events(campaign: batch.campaignID, newUpdateTag: tag)
                }
                try Self.record(events, now: now, db)
                let serials = String(decoding: try JSONEncoder().encode(batch.changes.map(\.serialNumber)), as: UTF8.self)
                // The devices of the changed passes this campaign owes no push yet: one push each, held until the
                // campaign ends (releaseCampaignPushes queues them). Each device is looked up once, however many of
                // its passes the batch changed.
                try db.execute(sql: """
                    INSERT INTO campaign_pushes (campaign_id, push_token, pass_type_identifier)
                    SELECT DISTINCT ?1, d.push_token, ?2 FROM (
                        SELECT DISTINCT device_library_identifier FROM registrations
                        WHERE pass_type_identifier = ?2 AND serial_number IN (SELECT value FROM json_each(?3))
                    ) r
                    JOIN devices d ON d.device_library_identifier = r.device_library_identifier
                    WHERE true
                    ON CONFLICT DO NOTHING
                    """, arguments: [batch.campaignID, batch.passTypeIdentifier, serials])
                let owed = db.changesCount
                guard let record = try Self.campaign(id: batch.campaignID, db) else { return .cursorMoved }
                let errors = record.errors + batch.failures.prefix(max(0, CampaignRecord.keptErrors - record.errors.count))
                try db.execute(sql: """
                    UPDATE campaigns SET matched = matched + ?, changed = changed + ?, failed = failed + ?, errors = ?,
                        pushes_queued = pushes_queued + ?, pushes_held = pushes_held + ?,
                        state = CASE WHEN ? THEN 'done' ELSE state END,
                        finished_at = CASE WHEN ? THEN ? ELSE finished_at END
                    WHERE id = ?
                    """, arguments: [
                        batch.matched, batch.changes.count, batch.failures.count, try JSONEncoder().encode(errors),
                        owed, owed, batch.finishes, batch.finishes, now.timeIntervalSince1970, batch.campaignID,
                    ])
                guard let written = try Self.campaign(id: batch.campaignID, db) else { return .cursorMoved }
                if batch.finishes { try Self.record([.campaignFinished(written)], now: now, db) }
                return .written(written)
            }
        } catch is PassChangedSinceRead {
            return .passChanged
        } catch let error as PassStoreError {
            throw error
        } catch {
            throw PassStoreError.unavailable("\(error)")
        }
    }

    private static let endedWithHeldPushes = """
        SELECT id FROM campaigns WHERE pushes_held > 0 AND state IN ('done', 'cancelled', 'failed') ORDER BY sequence LIMIT 1
        """

    public func releaseCampaignPushes(limit: Int, now: Date) async throws -> Int {
        // Asked by every process after each campaign and poll: a read while nothing is held, so no write lock is taken.
        guard try await read({ db in try String.fetchOne(db, sql: Self.endedWithHeldPushes) }) != nil else { return 0 }
        return try await write { db in
            guard let id = try String.fetchOne(db, sql: Self.endedWithHeldPushes) else { return 0 }
            // A held push is a row: releasing it deletes the row and queues the push naming the campaign, or, when
            // the device's push is queued already, bumps its generation and adds the campaign to it.
            let released = try Row.fetchAll(db, sql: """
                DELETE FROM campaign_pushes
                WHERE campaign_id = ?1 AND (push_token, pass_type_identifier) IN (
                    SELECT push_token, pass_type_identifier FROM campaign_pushes WHERE campaign_id = ?1 LIMIT ?2)
                RETURNING push_token, pass_type_identifier
                """, arguments: [id, max(1, limit)])
            let queue = try db.cachedStatement(sql: """
                INSERT INTO push_queue (push_token, pass_type_identifier, generation, attempts, not_before, queued_at, campaigns)
                VALUES (?1, ?2, 1, 0, ?3, ?3, json_array(?4))
                ON CONFLICT (push_token, pass_type_identifier) DO UPDATE
                    SET generation = generation + 1, queued_at = ?3,
                        campaigns = json_insert(COALESCE(campaigns, '[]'), '$[#]', ?4)
                """)
            let seconds = now.timeIntervalSince1970
            for row in released {
                try queue.execute(arguments: [row[0] as String, row[1] as String, seconds, id])
            }
            // Fewer than asked for: none is left (also when the count had drifted from the rows).
            try db.execute(sql: """
                UPDATE campaigns SET pushes_held = CASE WHEN ?2 < ?3 THEN 0 ELSE MAX(pushes_held - ?2, 0) END WHERE id = ?1
                """, arguments: [id, released.count, max(1, limit)])
            return released.count
        }
    }
}
