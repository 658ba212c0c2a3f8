public import Foundation
public import PassStore
internal import PostgresNIO

/// Campaigns live beside the passes (the pass tables, whichever store asks), so a batch's pass changes, pushes and
/// progress commit in one transaction. Several instances on one database run the same campaign safely: a batch locks
/// the campaign row and is written only while the cursor is still the one it was read after; a second instance
/// writing the same batch waits for that lock, then finds the cursor moved and rolls back.
extension PostgresStore: CampaignStore {
    /// The columns a campaign is read from (the table aliased `c`), the last one its pushes sent.
    private static let campaignColumns = """
        c.id, c.sequence, c.specification, c.request_hash, c.idempotency_key, c.state, c.matched, c.changed, \
        c.failed, c.errors, c.pushes_queued, c.created_at, c.scheduled_at, c.started_at, c.finished_at, c.cursor, \
        COALESCE((SELECT s.sent FROM campaign_push_counts s WHERE s.campaign_id = c.id), 0)
        """

    private static func campaignRecord(_ row: PostgresRow) throws -> CampaignRecord {
        let (
            id, sequence, specification, requestHash, idempotencyKey, state, matched, changed, failed, errors,
            pushesQueued, createdAt, scheduledAt, startedAt, finishedAt, cursor, pushesSent
        ) = try row.decode((
            String, Int64, Data, String, String?, String, Int64, Int64, Int64, String, Int64, Date, Date?, Date?,
            Date?, String?, Int64
        ).self)
        guard let state = CampaignState(rawValue: state) else {
            throw PassStoreError.invalidData("campaigns.state: unknown state \(state)")
        }
        return CampaignRecord(
            id: id, sequence: sequence, specification: specification, requestHash: requestHash,
            idempotencyKey: idempotencyKey, state: state, matched: Int(matched), changed: Int(changed),
            failed: Int(failed), errors: try campaignErrors(errors), pushesQueued: Int(pushesQueued),
            pushesSent: Int(pushesSent), createdAt: createdAt, scheduledAt: scheduledAt, startedAt: startedAt,
            finishedAt: finishedAt, cursor: cursor)
    }

    /// A campaign's `errors` column: a JSON array of failures.
    private static func campaignErrors(_ json: String) throws -> [CampaignFailure] {
        do {
            return try JSONDecoder().decode([CampaignFailure].self, from: Data(json.utf8))
        } catch {
            throw PassStoreError.invalidData("campaigns.errors: \(error)")
        }
    }

    private static func campaignErrorsJSON(_ errors: [CampaignFailure]) throws -> String {
        String(decoding: try JSONEncoder().encode(errors), as: UTF8.self)
    }

    /// Stores a campaign as `scheduled`, or returns the one stored earlier with the same idempotency key (also when
    /// another process stores it at the same moment: the insert waits for that one's commit, then does nothing).
    /// - Parameters:
    ///   - campaign: The campaign.
    ///   - now: When it was accepted.
    /// - Throws: ``PassStore/PassStoreError/invalidData(_:)`` when a campaign with its identifier exists.
    /// - Returns: The campaign, and whether it was stored now.
    public func insertCampaign(_ campaign: NewCampaign, now: Date) async throws -> (campaign: CampaignRecord, inserted: Bool) {
        try await transaction { connection in
            let inserted: [PostgresRow]
            do {
                inserted = try await connection.query("""
                    INSERT INTO campaigns AS c (id, specification, request_hash, idempotency_key, state, created_at, scheduled_at)
                    VALUES (\(campaign.id), \(campaign.specification), \(campaign.requestHash), \(campaign.idempotencyKey)::text, \
                    'scheduled', \(now), \(campaign.scheduledAt)::timestamptz)
                    ON CONFLICT (idempotency_key) DO NOTHING
                    RETURNING \(unescaped: Self.campaignColumns)
                    """, logger: logger).collect()
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                throw PassStoreError.invalidData("campaign \(campaign.id) exists")
            }
            if let row = inserted.first { return (try Self.campaignRecord(row), true) }
            let existing = try await connection.query("""
                SELECT \(unescaped: Self.campaignColumns) FROM campaigns c WHERE c.idempotency_key = \(campaign.idempotencyKey)
                """, logger: logger).collect()
            guard let row = existing.first else {
                throw PassStoreError.unavailable("the campaign with idempotency key \(campaign.idempotencyKey ?? "") vanished")
            }
            return (try Self.campaignRecord(row), false)
        }
    }

    /// - Parameter id: The campaign's identifier.
    /// - Returns: The campaign, or `nil`.
    public func campaign(id: String) async throws -> CampaignRecord? {
        let rows = try await rows("SELECT \(unescaped: Self.campaignColumns) FROM campaigns c WHERE c.id = \(id)")
        return try rows.first.map(Self.campaignRecord)
    }

    /// - Parameter idempotencyKey: The key as stored.
    /// - Returns: The campaign stored with it, or `nil`.
    public func campaign(idempotencyKey: String) async throws -> CampaignRecord? {
        let rows = try await rows(
            "SELECT \(unescaped: Self.campaignColumns) FROM campaigns c WHERE c.idempotency_key = \(idempotencyKey)")
        return try rows.first.map(Self.campaignRecord)
    }

    /// Campaigns, newest first.
    /// - Parameters:
    ///   - state: Only campaigns in this state, when given.
    ///   - limit: The most to return.
    ///   - beforeSequence: Only campaigns stored before this one.
    /// - Returns: The campaigns.
    /// ``campaignColumns`` with the specification as a listing shows it: a selection by serial numbers (perhaps
    /// 100,000 of them) as their `serialNumberCount`, made by PostgreSQL's jsonb, so a page of campaigns neither
    /// carries nor has Swift parse every list.
    private static let listedCampaignColumns = campaignColumns.replacingOccurrences(of: "c.specification", with: """
        CASE WHEN jsonb_typeof(convert_from(c.specification, 'UTF8')::jsonb #> '{select,serialNumbers}') = 'array'
        THEN convert_to(jsonb_set(convert_from(c.specification, 'UTF8')::jsonb #- '{select,serialNumbers}',
                                  '{select,serialNumberCount}',
                                  to_jsonb(jsonb_array_length(convert_from(c.specification, 'UTF8')::jsonb #> '{select,serialNumbers}')))::text,
                        'UTF8')
        ELSE c.specification END
        """)

    public func campaigns(state: CampaignState?, limit: Int, beforeSequence: Int64?) async throws -> [CampaignRecord] {
        let rows = try await rows("""
            SELECT \(unescaped: Self.listedCampaignColumns) FROM campaigns c
            WHERE (\(state?.rawValue)::text IS NULL OR c.state = \(state?.rawValue))
                AND (\(beforeSequence)::bigint IS NULL OR c.sequence < \(beforeSequence))
            ORDER BY c.sequence DESC LIMIT \(max(0, limit))
            """)
        return try rows.map(Self.campaignRecord)
    }

    /// Cancels a scheduled or running campaign (a batch being written meanwhile commits first: the cancel waits for
    /// the campaign row).
    /// - Parameters:
    ///   - id: The campaign's identifier.
    ///   - now: When it was cancelled.
    /// - Returns: The campaign as it is now (unchanged when it had already finished), or `nil` when there is none.
    public func cancelCampaign(id: String, now: Date) async throws -> CampaignRecord? {
        try await transaction { connection in
            let cancelled = try await connection.query("""
                UPDATE campaigns SET state = 'cancelled', finished_at = \(now)
                WHERE id = \(id) AND state IN ('scheduled', 'running')
                RETURNING 1
                """, logger: logger).collect()
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.campaignColumns) FROM campaigns c WHERE c.id = \(id)", logger: logger
            ).collect()
            let record = try rows.first.map(Self.campaignRecord)
            if !cancelled.isEmpty, let record { try await self.record([.campaignFinished(record)], now: now, connection) }
            return record
        }
    }

    /// Makes the scheduled campaigns due at `now` running.
    /// - Parameter now: The current time (their `startedAt`).
    /// - Returns: Every running campaign, oldest first.
    public func startDueCampaigns(now: Date) async throws -> [CampaignRecord] {
        // Asked every half second by every process: one read while there is nothing to do, no transaction.
        let due = try await rows("""
            SELECT EXISTS (SELECT 1 FROM campaigns WHERE state = 'running')
                OR EXISTS (SELECT 1 FROM campaigns WHERE state = 'scheduled' AND (scheduled_at IS NULL OR scheduled_at <= \(now)))
            """)
        guard try due.first?.decode(Bool.self) == true else { return [] }
        return try await transaction { connection in
            try await connection.query("""
                UPDATE campaigns SET state = 'running', started_at = \(now)
                WHERE state = 'scheduled' AND (scheduled_at IS NULL OR scheduled_at <= \(now))
                """, logger: logger)
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.campaignColumns) FROM campaigns c WHERE c.state = 'running' ORDER BY c.sequence
                """, logger: logger).collect()
            return try rows.map(Self.campaignRecord)
        }
    }

    /// - Returns: When the next scheduled campaign is due (one without a time: at once, the Unix epoch), or `nil` when
    ///   none is scheduled.
    public func nextScheduledCampaign() async throws -> Date? {
        let rows = try await rows("""
            SELECT MIN(COALESCE(scheduled_at, to_timestamp(0))) FROM campaigns WHERE state = 'scheduled'
            """)
        return try rows.first?.decode(Date?.self)
    }

    /// Marks a campaign that has not finished failed, keeping the reason as an error (when fewer than
    /// ``PassStore/CampaignRecord/keptErrors`` are kept).
    /// - Parameters:
    ///   - id: The campaign's identifier.
    ///   - reason: Why it failed.
    ///   - now: When it failed.
    public func failCampaign(id: String, reason: String, now: Date) async throws {
        try await transaction { connection in
            let rows = try await connection.query(
                "SELECT state, errors FROM campaigns WHERE id = \(id) FOR UPDATE", logger: logger
            ).collect()
            guard let (state, json) = try rows.first?.decode((String, String).self),
                  !(CampaignState(rawValue: state)?.isFinal ?? true)
            else { return }
            let errors = CampaignRecord.errors(try Self.campaignErrors(json), failedBecause: reason)
            let failed = try await connection.query("""
                UPDATE campaigns c SET state = 'failed', finished_at = \(now), errors = \(try Self.campaignErrorsJSON(errors))
                WHERE id = \(id)
                RETURNING \(unescaped: Self.campaignColumns)
                """, logger: logger).collect()
            if let row = failed.first { try await record([.campaignFinished(try Self.campaignRecord(row))], now: now, connection) }
        }
    }

    /// Up to `limit` passes of a selection after a serial number, in serial-number order (byte order), voided ones
    /// included.
    /// - Parameters:
    ///   - selection: A template's passes (through the `passes_template` index), or given serial numbers of a type.
    ///   - cursor: The last serial number of the previous batch, or `nil` to start.
    ///   - limit: The most passes to return.
    /// - Returns: The passes.
    public func campaignPasses(_ selection: CampaignPassSelection, after cursor: String?, limit: Int) async throws
        -> [PassRecord]
    {
        let items = ItemTables.passes.items
        let limit = max(0, limit)
        // Two texts rather than `$n IS NULL OR ...`, so each has the plan of an index range scan.
        let rows: [PostgresRow]
        switch (selection, cursor) {
        case (.template(let name), nil):
            rows = try await self.rows("""
                SELECT \(unescaped: Self.passColumns) FROM \(unescaped: items) WHERE template = \(name)
                ORDER BY serial_number COLLATE "C" LIMIT \(limit)
                """)
        case (.template(let name), let cursor?):
            rows = try await self.rows("""
                SELECT \(unescaped: Self.passColumns) FROM \(unescaped: items)
                WHERE template = \(name) AND serial_number COLLATE "C" > \(cursor)
                ORDER BY serial_number COLLATE "C" LIMIT \(limit)
                """)
        case (.serialNumbers(let passTypeIdentifier, let serials), nil):
            rows = try await self.rows("""
                SELECT \(unescaped: Self.passColumns) FROM \(unescaped: items)
                WHERE pass_type_identifier = \(passTypeIdentifier) AND serial_number = ANY(\(serials))
                ORDER BY serial_number COLLATE "C" LIMIT \(limit)
                """)
        case (.serialNumbers(let passTypeIdentifier, let serials), let cursor?):
            rows = try await self.rows("""
                SELECT \(unescaped: Self.passColumns) FROM \(unescaped: items)
                WHERE pass_type_identifier = \(passTypeIdentifier) AND serial_number = ANY(\(serials))
                    AND serial_number COLLATE "C" > \(cursor)
                ORDER BY serial_number COLLATE "C" LIMIT \(limit)
                """)
        }
        return try rows.map(Self.passRecord)
    }

    /// A batch begun while the one before it commits finds the pushes it owes meanwhile, then waits for that
    /// commit (``writeCampaignBatch(_:now:)``).
    public var overlapsCampaignBatchWrites: Bool { true }

    /// Thrown inside a batch's transaction to roll it back (the pushes it found owed too): a pass changed since it
    /// was read, or the campaign's cursor moved.
    private struct NotWritten: Error { var outcome: CampaignBatchOutcome }

    /// Writes one campaign batch in one transaction:
    /// 1. records the (push token, pass type) pairs of the changed passes' devices this campaign owes no push yet,
    ///    held until the campaign ends (``releaseCampaignPushes(limit:now:)`` queues them): first, so that a batch
    ///    begun while the one before it commits does this work meanwhile;
    /// 2. locks the campaign's row (waiting for the batch before it to commit) and checks that its cursor is still
    ///    `expectedCursor` and it is running: nothing is written otherwise;
    /// 3. applies the changes, each only while the pass's update tag is the one it was read with, each with its own
    ///    new update tag from the update tag counter (taken together, in the order of the changes; the counter row
    ///    stays locked until the commit, as for ``updatePass(passTypeIdentifier:serialNumber:change:now:)``) and
    ///    `lastModified` at least a second after the previous version's; one pass changed meanwhile rolls everything
    ///    back;
    /// 4. moves the cursor, adds the counts and the first failures up to ``PassStore/CampaignRecord/keptErrors``,
    ///    and for the last batch makes the campaign `done`.
    ///
    /// The pass updates are one statement over the batch (`unnest` of the changes), so the update tag counter, which
    /// every pass change in the database waits for, is held for a few round trips however large the batch.
    /// - Parameters:
    ///   - batch: The batch.
    ///   - now: The time of the change.
    /// - Returns: The campaign as written, or why nothing was written.
    public func writeCampaignBatch(_ batch: CampaignBatch, now: Date) async throws -> CampaignBatchOutcome {
        guard !holdsOrders else {
            throw PassStoreError.invalidData("campaigns change passes: write their batches through the pass store")
        }
        // Held until the campaign's row is locked below (or the transaction ends): the next batch handed over begins
        // behind that lock, not before it (CampaignWriteTurns).
        let turn = await campaignWriteTurns.take()
        defer { turn.end() }
        // A server that crashed under the transaction can leave a statement unanswered for good: past the deadline
        // the batch fails (and ends its turn), and the runner reads the campaign again from what was committed.
        return try await AnswerDeadline.run(seconds: Self.campaignBatchDeadline, "campaign batch write") {
            try await self.campaignBatchTransaction(batch, now: now, turn: turn)
        }
    }

    /// How long a campaign batch's transaction may go without an answer before it is given up.
    static let campaignBatchDeadline: Double = 60

    private func campaignBatchTransaction(_ batch: CampaignBatch, now: Date, turn: CampaignWriteTurns.Turn) async throws
        -> CampaignBatchOutcome
    {
        let tables = ItemTables.passes
        do {
            return try await pool.transaction(mapError: { $0 is NotWritten ? $0 : Self.storeError($0) }) {
                connection in
                // The devices of the changed passes this campaign owes no push yet: one push each, held until the
                // campaign ends (releaseCampaignPushes queues them). Found and written first, before the campaign's
                // row is locked: a batch handed over while the one before it commits does this meanwhile (rolled back
                // with the rest when the cursor has moved). Each device is looked up once, however many of its passes
                // the batch changed, by its key: as a plain join it was planned as a hash of the batch's devices
                // against a scan of every device, for each batch (and an anti-join with the pushes already owed, as
                // a scan of those, so they are skipped by the key's conflict instead). Rows are written in key order,
                // so two batches owing a push to one device wait for each other at most, never in a cycle.
                var owed: Int64 = 0
                if !batch.changes.isEmpty {
                    let inserted = try await connection.query("""
                        WITH owed AS (
                            INSERT INTO campaign_pushes (campaign_id, push_token, pass_type_identifier)
                            SELECT DISTINCT \(batch.campaignID), d.push_token, \(batch.passTypeIdentifier)::text
                            FROM (
                                SELECT DISTINCT device_library_identifier FROM \(unescaped: tables.registrations)
                                WHERE pass_type_identifier = \(batch.passTypeIdentifier)
                                    AND serial_number = ANY(\(batch.changes.map(\.serialNumber)))
                            ) r
                            JOIN LATERAL (
                                SELECT push_token FROM \(unescaped: tables.devices) d
                                WHERE d.device_library_identifier = r.device_library_identifier LIMIT 1
                            ) d ON true
                            ORDER BY d.push_token
                            ON CONFLICT DO NOTHING
                            RETURNING 1
                        )
                        SELECT COUNT(*) FROM owed
                        """, logger: logger).collect()
                    owed = try inserted.first?.decode(Int64.self) ?? 0
                }

                // The campaign's row, locked: waits for a batch before this one still being written. Read with the
                // lock (the row as that batch committed it), not by an UPDATE with the cursor in its condition: that
                // would compare the version before that batch's commit, and find the cursor elsewhere.
                let locked = try await connection.query("""
                    SELECT cursor, state, errors FROM campaigns WHERE id = \(batch.campaignID) FOR UPDATE
                    """, logger: logger).collect()
                turn.end()
                guard let row = locked.first else { throw NotWritten(outcome: .cursorMoved) }
                let (cursor, state, errorsJSON) = try row.decode((String?, String, String).self)
                guard state == CampaignState.running.rawValue, cursor == batch.expectedCursor else {
                    throw NotWritten(outcome: .cursorMoved)
                }
                let keptErrors = try Self.campaignErrors(errorsJSON)

                let changes = batch.changes
                if !changes.isEmpty {
                    let counter = try await connection.query("""
                        UPDATE counters SET value = value + \(changes.count) WHERE name = \(tables.counter) RETURNING value
                        """, logger: logger).collect()
                    guard let last = try counter.first?.decode(Int64.self) else {
                        throw PassStoreError.invalidData("counters: the \(tables.counter) row is missing")
                    }
                    let tags = (0..<Int64(changes.count)).map { last - Int64(changes.count) + 1 + $0 }
                    let updated = try await connection.query("""
                        UPDATE \(unescaped: tables.items) p SET
                            data = CASE WHEN c.has_data THEN c.data ELSE p.data END,
                            voided = CASE WHEN c.sets_voided THEN c.voided ELSE p.voided END,
                            template_version = COALESCE(NULLIF(c.template_version, ''), p.template_version),
                            update_tag = c.tag,
                            last_modified = GREATEST(\(now.wholeSeconds), p.last_modified + interval '1 second')
                        FROM unnest(\(changes.map(\.serialNumber))::text[], \(changes.map(\.updateTag))::bigint[], \
                            \(tags)::bigint[], \(changes.map { $0.data != nil })::boolean[], \
                            \(changes.map { ByteBuffer(bytes: $0.data ?? Data()) })::bytea[], \
                            \(changes.map { $0.voided != nil })::boolean[], \(changes.map { $0.voided ?? false })::boolean[], \
                            \(changes.map { $0.templateVersion ?? "" })::text[])
                            AS c(serial_number, read_tag, tag, has_data, data, sets_voided, voided, template_version)
                        WHERE p.pass_type_identifier = \(batch.passTypeIdentifier) AND p.serial_number = c.serial_number
                            AND p.update_tag = c.read_tag
                        RETURNING p.serial_number
                        """, logger: logger).collect()
                    // Rolls the whole batch back: the runner reads it again.
                    guard updated.count == changes.count else { throw NotWritten(outcome: .passChanged) }
                    try await record(zip(changes, tags).flatMap { change, tag in
                        change.events(campaign: batch.campaignID, newUpdateTag: tag)
                    }, now: now, connection)
                }

                let errors = keptErrors + batch.failures.prefix(max(0, CampaignRecord.keptErrors - keptErrors.count))
                let written = try await connection.query("""
                    UPDATE campaigns c SET cursor = \(batch.cursor)::text,
                        matched = matched + \(batch.matched), changed = changed + \(changes.count),
                        failed = failed + \(batch.failures.count), errors = \(try Self.campaignErrorsJSON(errors)),
                        pushes_queued = pushes_queued + \(owed), pushes_held = pushes_held + \(owed),
                        state = CASE WHEN \(batch.finishes) THEN 'done' ELSE state END,
                        finished_at = CASE WHEN \(batch.finishes) THEN \(now) ELSE finished_at END
                    WHERE id = \(batch.campaignID)
                    RETURNING \(unescaped: Self.campaignColumns)
                    """, logger: logger).collect()
                guard let row = written.first else { throw NotWritten(outcome: .cursorMoved) }
                let record = try Self.campaignRecord(row)
                if batch.finishes { try await self.record([.campaignFinished(record)], now: now, connection) }
                return .written(record)
            }
        } catch let notWritten as NotWritten {
            return notWritten.outcome
        }
    }
}
