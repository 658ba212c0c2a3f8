public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: GoogleCallbackStore {
    public func recordGoogleCallback(_ callback: GoogleCallbackRecord, now: Date) async throws -> Bool {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO google_callbacks (nonce, pass_type_identifier, serial_number, saved, received_at)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT (nonce) DO NOTHING
                """, arguments: [callback.nonce, callback.passTypeIdentifier, callback.serialNumber, callback.isSave,
                                 now.timeIntervalSince1970])
            guard db.changesCount == 1 else { return false }
            try Self.record([callback.event], now: now, db)
            return true
        }
    }

    public func googleCallbackCounts(passTypeIdentifier: String, serialNumber: String) async throws -> (saves: Int, deletes: Int) {
        try await read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT COALESCE(SUM(saved), 0), COALESCE(SUM(1 - saved), 0) FROM google_callbacks
                WHERE pass_type_identifier = ? AND serial_number = ?
                """, arguments: [passTypeIdentifier, serialNumber])
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }
}
