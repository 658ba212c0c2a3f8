public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: GoogleCallbackStore {
    public func recordGoogleCallback(_ callback: GoogleCallbackRecord, now: Date) async throws -> Bool {
        try await transaction { connection in
            let inserted = try await connection.query("""
                INSERT INTO google_callbacks (nonce, pass_type_identifier, serial_number, saved, received_at)
                VALUES (\(callback.nonce), \(callback.passTypeIdentifier), \(callback.serialNumber), \(callback.isSave), \(now))
                ON CONFLICT (nonce) DO NOTHING RETURNING nonce
                """, logger: logger).collect()
            guard !inserted.isEmpty else { return false }
            try await self.record([callback.event], now: now, connection)
            return true
        }
    }

    public func googleCallbackCounts(passTypeIdentifier: String, serialNumber: String) async throws -> (saves: Int, deletes: Int) {
        let rows = try await rows("""
            SELECT COUNT(*) FILTER (WHERE saved), COUNT(*) FILTER (WHERE NOT saved) FROM google_callbacks
            WHERE pass_type_identifier = \(passTypeIdentifier) AND serial_number = \(serialNumber)
            """)
        guard let row = rows.first else { return (0, 0) }
        let (saves, deletes) = try row.decode((Int, Int).self)
        return (saves, deletes)
    }
}
