public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: RedemptionStore {
    public func passes(barcodeMessage: String, limit: Int) async throws -> [PassRecord] {
        try await read { db in
            let statement = try db.cachedStatement(sql: """
                SELECT \(Self.passColumns) FROM passes WHERE \(Self.barcodeMessageExpression) = ?
                ORDER BY pass_type_identifier, serial_number LIMIT ?
                """)
            return try Row.fetchAll(statement, arguments: [barcodeMessage, max(0, limit)]).map { Self.passRecord($0) }
        }
    }

    public func redeem(_ attempt: RedemptionAttempt, now: Date) async throws -> RedemptionOutcome {
        try await write { [tables] db in
            if let key = attempt.idempotencyKey, let earlier = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT pass_type_identifier, serial_number, result, scanned_at, redemptions, request_hash
                FROM redemptions WHERE idempotency_key = ?
                """), arguments: [key]) {
                guard (earlier[5] as String) == attempt.requestHash else { throw PassStoreError.idempotencyConflict(key) }
                return try Self.replay(earlier, tables, db)
            }
            let found = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT redemptions, \(Self.passColumns) FROM passes WHERE pass_type_identifier = ? AND serial_number = ?
                """), arguments: [attempt.passTypeIdentifier, attempt.serialNumber])
            guard let found, let type = attempt.passTypeIdentifier, let serial = attempt.serialNumber else {
                try Self.logScan(attempt, result: .unknown, redemptions: 0, now: now, db)
                return RedemptionOutcome(result: .unknown, pass: nil, redemptions: 0, scannedAt: now, first: nil)
            }
            var record = Self.passRecord(found, from: 1)
            var count: Int = found[0]
            let result = attempt.result(redemptions: count, voided: record.voided)
            if result == .valid {
                count += 1
                try db.execute(sql: "UPDATE passes SET redemptions = ? WHERE pass_type_identifier = ? AND serial_number = ?",
                               arguments: [count, type, serial])
                try Self.record([.redeemed(record: record, redemptions: count, place: attempt.place,
                                           limit: attempt.rule.limit)], now: now, db)
            }
            try Self.logScan(attempt, result: result, redemptions: count, now: now, db)
            var pushes = 0
            if attempt.rule.voidsWhenUsedUp, !record.voided, let limit = attempt.rule.limit, count >= limit,
               let update = try Self.updatePass(passTypeIdentifier: type, serialNumber: serial,
                                                change: PassChange(voided: true), now: now, tables, db)
            {
                record = update.pass
                pushes = update.pushesQueued
            }
            return RedemptionOutcome(result: result, pass: record, redemptions: count, scannedAt: now,
                                     first: try Self.summary(type, serial, db), pushesQueued: pushes)
        }
    }

    public func earlierRedemption(idempotencyKey: String, requestHash: String) async throws -> RedemptionOutcome? {
        try await read { [tables] db in
            guard let earlier = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT pass_type_identifier, serial_number, result, scanned_at, redemptions, request_hash
                FROM redemptions WHERE idempotency_key = ?
                """), arguments: [idempotencyKey]) else { return nil }
            guard (earlier[5] as String) == requestHash else { throw PassStoreError.idempotencyConflict(idempotencyKey) }
            return try Self.replay(earlier, tables, db)
        }
    }

    public func redemptionSummary(passTypeIdentifier: String, serialNumber: String) async throws -> RedemptionSummary? {
        try await read { db in try Self.summary(passTypeIdentifier, serialNumber, db) }
    }

    private static func logScan(_ attempt: RedemptionAttempt, result: RedemptionResult, redemptions: Int, now: Date,
                                _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO redemptions (pass_type_identifier, serial_number, result, place, scanned_at, redemptions,
                idempotency_key, request_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                result == .unknown ? nil : attempt.passTypeIdentifier, result == .unknown ? nil : attempt.serialNumber,
                result.rawValue, attempt.place, now.timeIntervalSince1970, redemptions, attempt.idempotencyKey,
                attempt.requestHash,
            ])
    }

    private static func summary(_ type: String, _ serial: String, _ db: Database) throws -> RedemptionSummary? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT (SELECT redemptions FROM passes WHERE pass_type_identifier = ?1 AND serial_number = ?2),
                scanned_at, place FROM redemptions
            WHERE pass_type_identifier = ?1 AND serial_number = ?2 AND result = 'valid' ORDER BY id LIMIT 1
            """), arguments: [type, serial])
        else { return nil }
        return RedemptionSummary(redemptions: row[0] ?? 0, firstRedeemedAt: Date(timeIntervalSince1970: row[1]),
                                 firstPlace: row[2])
    }

    private static func replay(_ row: Row, _ tables: Tables, _ db: Database) throws -> RedemptionOutcome {
        let type: String? = row[0]
        let serial: String? = row[1]
        var record: PassRecord?
        var first: RedemptionSummary?
        if let type, let serial {
            record = try Row.fetchOne(db.cachedStatement(sql: tables.itemByKey), arguments: [type, serial])
                .map { passRecord($0) }
            first = try summary(type, serial, db)
        }
        return RedemptionOutcome(
            result: RedemptionResult(rawValue: row[2]) ?? .unknown, pass: record, redemptions: row[4],
            scannedAt: Date(timeIntervalSince1970: row[3]), first: first, replayed: true)
    }
}
