public import Foundation
import HTTPTypes
import PassCrypto
public import PassModel
public import PassStore

/// Issuer API keys for brands and teams on one server: made, listed and revoked by the operator (admin token), each
/// with a scope of identifiers and permissions. A key's secret is shown once and stored only as its SHA-256.
public final class APIKeyService: Sendable {
    private let store: any APIKeyStore
    private let now: @Sendable () -> Date

    /// Creates the service.
    public init(store: any APIKeyStore, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.now = now
    }

    /// A key just made: the record and its secret (shown this once).
    public struct Created: Sendable {
        /// The stored key.
        public var record: APIKeyRecord
        /// The secret for `Authorization: Bearer <secret>`.
        public var secret: String
    }

    /// Makes a key from `POST /api/v1/keys`'s body: `{"name", "scope": {"identifiers": [...], "permissions": [...]}}`.
    /// - Throws: ``IssuerError`` naming the member at fault (400 for the body's shape, 422 for its values).
    public func create(_ body: [String: JSONValue]) async throws -> Created {
        for key in body.keys.sorted() where !["name", "scope"].contains(key) {
            throw IssuerError.badBody("\(key): unknown member (known: name, scope)", field: key)
        }
        guard case .string(let name)? = body["name"] else {
            throw IssuerError.badBody("name: required, a string", field: "name")
        }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...100).contains(trimmed.count), !trimmed.contains(where: \.isNewline),
              !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw IssuerError.invalid("name: 1 to 100 characters on one line, without control characters", field: "name")
        }
        guard case .object(let scope)? = body["scope"] else {
            throw IssuerError.badBody("scope: required, an object with identifiers and permissions", field: "scope")
        }
        for key in scope.keys.sorted() where !["identifiers", "permissions"].contains(key) {
            throw IssuerError.badBody("scope.\(key): unknown member (known: identifiers, permissions)", field: "scope.\(key)")
        }
        let identifiers = try Self.identifiers(scope["identifiers"])
        let permissions = try Self.permissions(scope["permissions"])
        let secret = "tsk_" + SecretToken.random(length: 40)
        let record = APIKeyRecord(
            id: "key_" + SecretToken.random(length: 20), name: trimmed, secretHash: Self.hash(secret),
            identifiers: identifiers, permissions: permissions.map(\.rawValue).sorted(),
            createdAt: Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down)))
        try await store.insertAPIKey(record)
        return Created(record: record, secret: secret)
    }

    /// Every key not revoked (without secrets: the store has none).
    public func list() async throws -> [APIKeyRecord] {
        try await store.apiKeys()
    }

    /// Revokes a key at once, for every server process on the store.
    /// - Returns: Whether there was such a key not yet revoked.
    public func revoke(id: String) async throws -> Bool {
        try await store.revokeAPIKey(id: id, now: now())
    }

    /// The caller a bearer secret stands for, when it is a key's and not revoked.
    public func principal(secret: String) async throws -> IssuerPrincipal? {
        guard secret.hasPrefix("tsk_"), secret.count < 200 else { return nil }
        guard let record = try await store.apiKey(secretHash: Self.hash(secret)) else { return nil }
        return .key(id: record.id, name: record.name, scope: Self.scope(of: record))
    }

    /// A stored key's scope.
    public static func scope(of record: APIKeyRecord) -> IssuerScope {
        IssuerScope(identifiers: record.identifiers, permissions: Set(record.permissions.compactMap(IssuerPermission.init(rawValue:))))
    }

    static func hash(_ secret: String) -> Data {
        Data(Digest.sha256(Array(secret.utf8)))
    }

    private static func identifiers(_ value: JSONValue?) throws -> [String] {
        guard case .array(let items)? = value, !items.isEmpty, items.count <= 100 else {
            throw IssuerError.badBody("scope.identifiers: required, 1 to 100 identifiers", field: "scope.identifiers")
        }
        var identifiers: [String] = []
        for (index, item) in items.enumerated() {
            let field = "scope.identifiers[\(index)]"
            guard case .string(let text) = item else { throw IssuerError.badBody("\(field): must be a string", field: field) }
            let stem = text.hasSuffix("*") ? String(text.dropLast()) : text
            let valid = (stem.hasPrefix("pass.") || stem.hasPrefix("order.")) && text.count <= 255
                && stem.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || "-._".utf8.contains($0) }
                && (text.hasSuffix("*") || stem.count > 6)
            guard valid else {
                throw IssuerError.invalid(
                    "\(field): \(text) is not a pass or order type identifier, or a prefix of one ending in * (pass.com.brand-a.*)",
                    field: field)
            }
            if !identifiers.contains(text) { identifiers.append(text) }
        }
        return identifiers
    }

    private static func permissions(_ value: JSONValue?) throws -> Set<IssuerPermission> {
        guard case .array(let items)? = value, !items.isEmpty else {
            throw IssuerError.badBody("scope.permissions: required, one or more of read, write, redeem", field: "scope.permissions")
        }
        var permissions: Set<IssuerPermission> = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item, let permission = IssuerPermission(rawValue: text) else {
                throw IssuerError.invalid(
                    "scope.permissions[\(index)]: must be read, write or redeem", field: "scope.permissions[\(index)]")
            }
            permissions.insert(permission)
        }
        return permissions
    }
}

extension IssuerError {
    /// A request body of the wrong shape (400), naming the member.
    static func badBody(_ reason: String, field: String) -> IssuerError {
        IssuerError(status: .badRequest, description: reason, field: field)
    }
}
