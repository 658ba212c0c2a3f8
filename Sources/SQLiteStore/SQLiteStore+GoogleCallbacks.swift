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
            // The object saved or not before this callback (the latest other one): a save of a saved object, or a
            // delete of one not saved, changes no count, as the mirror of the other stores has it.
            let wasSaved = try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT saved FROM google_callbacks WHERE pass_type_identifier = ? AND serial_number = ? AND nonce <> ?
                ORDER BY received_at DESC LIMIT 1
                """), arguments: [callback.passTypeIdentifier, callback.serialNumber, callback.nonce]) ?? false
            var judged = RegistrationChange.unchanged
            if wasSaved != callback.isSave {
                let otherDevices = try Bool.fetchOne(db.cachedStatement(sql: """
                    SELECT EXISTS (SELECT 1 FROM registrations WHERE pass_type_identifier = ? AND serial_number = ?)
                    """), arguments: [callback.passTypeIdentifier, callback.serialNumber]) ?? false
                // The object is a "device" of one pass: it has no other pass of the template.
                judged = .changed(otherDevices: otherDevices, otherPasses: false)
            }
            try Self.record([RecordedEvent(draft: callback.event, now: now, judged: judged)], db)
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
