public import Foundation
public import PassStore
internal import PostgresNIO

extension PostgresStore: APIKeyStore {
    public func insertAPIKey(_ key: APIKeyRecord) async throws {
        _ = try await rows("""
            INSERT INTO api_keys (id, name, secret_hash, scope, created_at)
            VALUES (\(key.id), \(key.name), \(ByteBuffer(bytes: key.secretHash)), \(String(decoding: key.scopeJSON, as: UTF8.self)), \(key.createdAt))
            """)
    }

    public func apiKeys() async throws -> [APIKeyRecord] {
        try await rows("""
            SELECT id, name, secret_hash, scope, created_at FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at, id
            """).map(Self.apiKey(_:))
    }

    public func apiKey(secretHash: Data) async throws -> APIKeyRecord? {
        try await rows("""
            SELECT id, name, secret_hash, scope, created_at FROM api_keys
            WHERE secret_hash = \(ByteBuffer(bytes: secretHash)) AND revoked_at IS NULL
            """).first.map(Self.apiKey(_:))
    }

    public func revokeAPIKey(id: String, now: Date) async throws -> Bool {
        try await !rows("""
            UPDATE api_keys SET revoked_at = \(now) WHERE id = \(id) AND revoked_at IS NULL RETURNING id
            """).isEmpty
    }

    private static func apiKey(_ row: PostgresRow) throws -> APIKeyRecord {
        let (id, name, hash, scopeText, createdAt) = try row.decode((String, String, Data, String, Date).self)
        let scope = APIKeyRecord.scope(fromJSON: Data(scopeText.utf8))
        return APIKeyRecord(
            id: id, name: name, secretHash: hash, identifiers: scope.identifiers, permissions: scope.permissions,
            createdAt: createdAt)
    }
}
