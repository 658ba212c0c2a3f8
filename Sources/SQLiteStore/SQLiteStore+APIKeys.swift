public import Foundation
internal import GRDB
public import PassStore

extension SQLiteStore: APIKeyStore {
    public func insertAPIKey(_ key: APIKeyRecord) async throws {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO api_keys (id, name, secret_hash, scope, created_at) VALUES (?, ?, ?, ?, ?)
                """, arguments: [key.id, key.name, key.secretHash, String(decoding: key.scopeJSON, as: UTF8.self),
                                 key.createdAt.timeIntervalSince1970])
        }
    }

    public func apiKeys() async throws -> [APIKeyRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, name, secret_hash, scope, created_at FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at, id
                """).map(Self.apiKey(_:))
        }
    }

    public func apiKey(secretHash: Data) async throws -> APIKeyRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: """
                SELECT id, name, secret_hash, scope, created_at FROM api_keys WHERE secret_hash = ? AND revoked_at IS NULL
                """, arguments: [secretHash]).map(Self.apiKey(_:))
        }
    }

    public func revokeAPIKey(id: String, now: Date) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                           arguments: [now.timeIntervalSince1970, id])
            return db.changesCount == 1
        }
    }

    private static func apiKey(_ row: Row) -> APIKeyRecord {
        let scope = APIKeyRecord.scope(fromJSON: Data((row[3] as String).utf8))
        return APIKeyRecord(
            id: row[0], name: row[1], secretHash: row[2], identifiers: scope.identifiers, permissions: scope.permissions,
            createdAt: Date(timeIntervalSince1970: row[4]))
    }
}
