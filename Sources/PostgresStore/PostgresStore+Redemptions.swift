public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: RedemptionStore {
    public func passes(barcodeMessage: String, limit: Int) async throws -> [PassRecord] {
        try await rows("""
            SELECT \(unescaped: Self.passColumns) FROM passes WHERE tessera_barcode_message(data) = \(barcodeMessage)
            ORDER BY pass_type_identifier, serial_number LIMIT \(max(0, limit))
            """).map { try Self.passRecord($0) }
    }

    /// Counts one scan. A scan with an idempotency key first takes a transaction lock on the key, so repeats of one
    /// key on any server process queue there and find the first scan's answer; then the pass's row is locked, so scans
    /// of one pass queue there and each sees the count the one before it left.
    ///
    /// A scan that voids the pass it uses up makes a new version, which takes the update tag counter's row. Every other
    /// writer (a `PATCH`, a campaign's batch) takes that row before the pass's, so such a scan takes it first too:
    /// taken after the pass's row, the two orders would deadlock. When a look at the pass without a lock shows this scan
    /// can use it up, the counter is taken at the start; if another scan counted meanwhile and this one turns out to
    /// use the pass up after all, its transaction is rolled back and run again that way.
    public func redeem(_ attempt: RedemptionAttempt, now: Date) async throws -> RedemptionOutcome {
        var counterFirst = false
        if attempt.rule.voidsWhenUsedUp, let limit = attempt.rule.limit, let type = attempt.passTypeIdentifier,
           let serial = attempt.serialNumber,
           let row = try await rows("""
               SELECT redemptions, voided FROM passes WHERE pass_type_identifier = \(type) AND serial_number = \(serial)
               """).first
        {
            let (count, voided) = try row.decode((Int, Bool).self)
            counterFirst = !voided && count + 1 >= limit
        }
        for takingCounter in counterFirst ? [true] : [false, true] {
            if let outcome = try await transaction({ connection in
                try await redeem(attempt, now: now, counterFirst: takingCounter, connection)
            }) {
                return outcome
            }
        }
        throw PassStoreError.unavailable("redemptions: a scan with the update tag counter taken first asked to take it")
    }

    /// One scan in the caller's transaction; `nil`, having written nothing, when the scan uses its pass up and must
    /// void it but the update tag counter was not taken first.
    private func redeem(_ attempt: RedemptionAttempt, now: Date, counterFirst: Bool, _ connection: PostgresConnection)
        async throws -> RedemptionOutcome?
    {
        if let key = attempt.idempotencyKey {
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended('tessera.redemption:' || \(key), 0))", logger: logger)
        }
        if counterFirst {
            try await connection.query(
                "SELECT value FROM counters WHERE name = \(tables.counter) FOR UPDATE", logger: logger)
        }
        let found = try await connection.query("""
            SELECT redemptions, \(unescaped: Self.passColumns) FROM passes
            WHERE pass_type_identifier = \(attempt.passTypeIdentifier) AND serial_number = \(attempt.serialNumber)
            FOR UPDATE
            """, logger: logger).collect().first
        if let key = attempt.idempotencyKey,
           let earlier = try await earlierRedemption(idempotencyKey: key, requestHash: attempt.requestHash, connection) {
            return earlier
        }
        guard let found, let type = attempt.passTypeIdentifier, let serial = attempt.serialNumber else {
            try await logScan(attempt, result: .unknown, redemptions: 0, now: now, connection)
            return RedemptionOutcome(result: .unknown, pass: nil, redemptions: 0, scannedAt: now, first: nil)
        }
        var count = try found.makeRandomAccess()[0].decode(Int.self)
        var record = try Self.passRecord(dropping: found)
        let result = attempt.result(redemptions: count, voided: record.voided)
        if !counterFirst, attempt.rule.voidsWhenUsedUp, !record.voided, let limit = attempt.rule.limit,
           count + (result == .valid ? 1 : 0) >= limit {
            return nil
        }
        if result == .valid {
            count += 1
            try await connection.query("""
                UPDATE passes SET redemptions = \(count)
                WHERE pass_type_identifier = \(type) AND serial_number = \(serial)
                """, logger: logger)
            try await self.record([.redeemed(record: record, redemptions: count, place: attempt.place,
                                             limit: attempt.rule.limit)], now: now, connection)
        }
        try await logScan(attempt, result: result, redemptions: count, now: now, connection)
        var pushes = 0
        if attempt.rule.voidsWhenUsedUp, !record.voided, let limit = attempt.rule.limit, count >= limit,
           let update = try await updatePass(passTypeIdentifier: type, serialNumber: serial,
                                             change: PassChange(voided: true), now: now, connection)
        {
            record = update.pass
            pushes = update.pushesQueued
        }
        return RedemptionOutcome(result: result, pass: record, redemptions: count, scannedAt: now,
                                 first: try await summary(type, serial, connection), pushesQueued: pushes)
    }

    public func earlierRedemption(idempotencyKey: String, requestHash: String) async throws -> RedemptionOutcome? {
        try await transaction { connection in
            try await earlierRedemption(idempotencyKey: idempotencyKey, requestHash: requestHash, connection)
        }
    }

    /// The scan a key was first used for, answered again; `nil` for a new key.
    private func earlierRedemption(idempotencyKey key: String, requestHash: String, _ connection: PostgresConnection)
        async throws -> RedemptionOutcome?
    {
        guard let earlier = try await connection.query("""
            SELECT pass_type_identifier, serial_number, result, scanned_at, redemptions, request_hash
            FROM redemptions WHERE idempotency_key = \(key)
            """, logger: logger).collect().first else { return nil }
        let (type, serial, result, scannedAt, count, hash) =
            try earlier.decode((String?, String?, String, Date, Int, String).self)
        guard hash == requestHash else { throw PassStoreError.idempotencyConflict(key) }
        var record: PassRecord?
        var first: RedemptionSummary?
        if let type, let serial {
            record = try await connection.query("""
                SELECT \(unescaped: Self.passColumns) FROM passes
                WHERE pass_type_identifier = \(type) AND serial_number = \(serial)
                """, logger: logger).collect().first.map { try Self.passRecord($0) }
            first = try await summary(type, serial, connection)
        }
        return RedemptionOutcome(result: RedemptionResult(rawValue: result) ?? .unknown, pass: record,
                                 redemptions: count, scannedAt: scannedAt, first: first, replayed: true)
    }

    public func redemptionSummary(passTypeIdentifier: String, serialNumber: String) async throws -> RedemptionSummary? {
        try await transaction { connection in try await summary(passTypeIdentifier, serialNumber, connection) }
    }

    private func logScan(_ attempt: RedemptionAttempt, result: RedemptionResult, redemptions: Int, now: Date,
                         _ connection: PostgresConnection) async throws {
        let known = result != .unknown
        try await connection.query("""
            INSERT INTO redemptions (pass_type_identifier, serial_number, result, place, scanned_at, redemptions,
                idempotency_key, request_hash)
            VALUES (\(known ? attempt.passTypeIdentifier : nil), \(known ? attempt.serialNumber : nil), \(result.rawValue),
                \(attempt.place), \(now), \(redemptions), \(attempt.idempotencyKey), \(attempt.requestHash))
            """, logger: logger)
    }

    private func summary(_ type: String, _ serial: String, _ connection: PostgresConnection) async throws
        -> RedemptionSummary?
    {
        guard let row = try await connection.query("""
            SELECT (SELECT redemptions FROM passes WHERE pass_type_identifier = \(type) AND serial_number = \(serial)),
                scanned_at, place FROM redemptions
            WHERE pass_type_identifier = \(type) AND serial_number = \(serial) AND result = 'valid'
            ORDER BY id LIMIT 1
            """, logger: logger).collect().first
        else { return nil }
        let (count, at, place) = try row.decode((Int?, Date, String?).self)
        return RedemptionSummary(redemptions: count ?? 0, firstRedeemedAt: at, firstPlace: place)
    }

    /// A pass record from a row whose first column is something else.
    private static func passRecord(dropping row: PostgresRow) throws -> PassRecord {
        let (_, type, serial, token, template, data, personalization, voided, download, tag, modified, created, version) =
            try row.decode((Int, String, String, String, String, Data, Data?, Bool, String, Int64, Date, Date, String?).self)
        return PassRecord(
            passTypeIdentifier: type, serialNumber: serial, authenticationToken: token, template: template, data: data,
            personalization: personalization, voided: voided, downloadToken: download, updateTag: tag,
            lastModified: modified, createdAt: created, templateVersion: version)
    }
}
