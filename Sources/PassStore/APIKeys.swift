public import Foundation

/// An issuer API key of a brand or team: what it may see and do, and the hash of its secret (the secret itself is
/// shown once, when the key is made, and never stored).
public struct APIKeyRecord: Sendable, Equatable {
    /// The key's identifier (`key_…`), used to list and revoke it.
    public var id: String
    /// A name for people (`brand-a`).
    public var name: String
    /// SHA-256 of the secret.
    public var secretHash: Data
    /// The pass and order type identifiers it covers, each exact or ending in `*` (`pass.com.brand-a.*`).
    public var identifiers: [String]
    /// What it may do: `read`, `write`, `redeem`.
    public var permissions: [String]
    /// When it was made.
    public var createdAt: Date

    /// Creates a record.
    public init(id: String, name: String, secretHash: Data, identifiers: [String], permissions: [String], createdAt: Date) {
        self.id = id
        self.name = name
        self.secretHash = secretHash
        self.identifiers = identifiers
        self.permissions = permissions
        self.createdAt = createdAt
    }
}

/// Where issuer API keys live, shared by every server process (a revocation holds for all of them at once).
public protocol APIKeyStore: Sendable {
    /// Stores a new key.
    func insertAPIKey(_ key: APIKeyRecord) async throws
    /// Every key not revoked, oldest first.
    func apiKeys() async throws -> [APIKeyRecord]
    /// The key whose secret hashes to `secretHash`, unless revoked.
    func apiKey(secretHash: Data) async throws -> APIKeyRecord?
    /// Revokes a key at `now`; `false` when there is no such key or it was revoked already.
    func revokeAPIKey(id: String, now: Date) async throws -> Bool
}

extension APIKeyRecord {
    /// The scope as the store keeps it: `{"identifiers": [...], "permissions": [...]}`.
    public var scopeJSON: Data {
        (try? JSONSerialization.data(withJSONObject: ["identifiers": identifiers, "permissions": permissions],
                                      options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    /// Reads a scope kept as ``scopeJSON``.
    public static func scope(fromJSON data: Data) -> (identifiers: [String], permissions: [String]) {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return ((object?["identifiers"] as? [String]) ?? [], (object?["permissions"] as? [String]) ?? [])
    }
}
