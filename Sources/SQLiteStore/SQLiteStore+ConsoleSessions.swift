public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: ConsoleSessionStore {
    public func insertConsoleSession(_ session: ConsoleSessionRecord) async throws {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO console_sessions (secret_hash, key_id, created_at, expires_at) VALUES (?, ?, ?, ?)
                """, arguments: [session.secretHash, session.keyID, session.createdAt.timeIntervalSince1970,
                                 session.expiresAt.timeIntervalSince1970])
        }
    }

    public func consoleSession(secretHash: Data, now: Date) async throws -> (session: ConsoleSessionRecord, key: APIKeyRecord?)? {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT s.secret_hash, s.key_id, s.created_at, s.expires_at, k.id, k.name, k.secret_hash, k.scope, k.created_at
                FROM console_sessions s LEFT JOIN api_keys k ON k.id = s.key_id AND k.revoked_at IS NULL
                WHERE s.secret_hash = ? AND s.expires_at > ?
                """, arguments: [secretHash, now.timeIntervalSince1970]) else { return nil }
            let session = ConsoleSessionRecord(
                secretHash: row[0], keyID: row[1], createdAt: Date(timeIntervalSince1970: row[2]),
                expiresAt: Date(timeIntervalSince1970: row[3]))
            guard session.keyID != nil else { return (session, nil) }
            guard let keyID: String = row[4] else { return nil }
            let scope = APIKeyRecord.scope(fromJSON: Data((row[7] as String).utf8))
            let key = APIKeyRecord(
                id: keyID, name: row[5], secretHash: row[6], identifiers: scope.identifiers,
                permissions: scope.permissions, createdAt: Date(timeIntervalSince1970: row[8]))
            return (session, key)
        }
    }

    public func deleteConsoleSession(secretHash: Data) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM console_sessions WHERE secret_hash = ?", arguments: [secretHash])
            return db.changesCount == 1
        }
    }

    public func deleteEndedConsoleSessions(now: Date) async throws -> Int {
        try await write { db in
            try db.execute(sql: """
                DELETE FROM console_sessions WHERE expires_at <= ?
                OR (key_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.id = key_id AND k.revoked_at IS NULL))
                """, arguments: [now.timeIntervalSince1970])
            return db.changesCount
        }
    }
}
