public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: ConsoleSessionStore {
    public func insertConsoleSession(_ session: ConsoleSessionRecord) async throws {
        _ = try await rows("""
            INSERT INTO console_sessions (secret_hash, key_id, created_at, expires_at)
            VALUES (\(ByteBuffer(bytes: session.secretHash)), \(session.keyID), \(session.createdAt), \(session.expiresAt))
            """)
    }

    public func consoleSession(secretHash: Data, now: Date) async throws -> (session: ConsoleSessionRecord, key: APIKeyRecord?)? {
        guard let row = try await rows("""
            SELECT s.secret_hash, s.key_id, s.created_at, s.expires_at, k.id, k.name, k.secret_hash, k.scope, k.created_at
            FROM console_sessions s LEFT JOIN api_keys k ON k.id = s.key_id AND k.revoked_at IS NULL
            WHERE s.secret_hash = \(ByteBuffer(bytes: secretHash)) AND s.expires_at > \(now)
            """).first else { return nil }
        let (hash, keyID, createdAt, expiresAt, liveID, name, keyHash, scopeText, keyCreatedAt) = try row.decode(
            (Data, String?, Date, Date, String?, String?, Data?, String?, Date?).self)
        let session = ConsoleSessionRecord(secretHash: hash, keyID: keyID, createdAt: createdAt, expiresAt: expiresAt)
        guard keyID != nil else { return (session, nil) }
        guard let liveID, let name, let keyHash, let scopeText, let keyCreatedAt else { return nil }
        let scope = APIKeyRecord.scope(fromJSON: Data(scopeText.utf8))
        return (session, APIKeyRecord(
            id: liveID, name: name, secretHash: keyHash, identifiers: scope.identifiers, permissions: scope.permissions,
            createdAt: keyCreatedAt))
    }

    public func deleteConsoleSession(secretHash: Data) async throws -> Bool {
        try await !rows("""
            DELETE FROM console_sessions WHERE secret_hash = \(ByteBuffer(bytes: secretHash)) RETURNING key_id
            """).isEmpty
    }

    public func deleteEndedConsoleSessions(now: Date) async throws -> Int {
        try await rows("""
            DELETE FROM console_sessions s WHERE s.expires_at <= \(now)
            OR (s.key_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.id = s.key_id AND k.revoked_at IS NULL))
            RETURNING s.created_at
            """).count
    }
}
