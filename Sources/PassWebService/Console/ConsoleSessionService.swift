public import Foundation
import PassCrypto
public import PassStore

/// The console's sessions: opened with the admin token or an API key, kept in the store (so signing out, or revoking
/// the key, ends a session on every server process), and carried by the browser as a cookie holding a random secret.
///
/// State-changing requests of a session carry its CSRF token, a hash of the session's secret: a page of another
/// origin can neither read the cookie nor compute the token.
public final class ConsoleSessionService: Sendable {
    /// How long a session lasts at most from sign-in (12 hours: a working day, then sign in again).
    public static let defaultLifetime: TimeInterval = 12 * 3600

    private let store: any ConsoleSessionStore
    private let keys: APIKeyService?
    private let adminToken: String
    /// The admin token's SHA-256, which an admin session's stored hash is bound to (``adminHash(_:)``).
    private let adminTokenDigest: String
    private let lifetime: TimeInterval
    private let now: @Sendable () -> Date
    /// The origin of the server's public URL (`https://passes.example.com`): a browser's `Origin` for the console
    /// behind a proxy that forwards another `Host`.
    public let publicOrigin: String?

    /// A URL's origin as a browser writes it in `Origin`: the scheme and host in lowercase, an IPv6 host in brackets,
    /// the port only when it is not the scheme's default (`https://passes.example.com:443/wallet` →
    /// `https://passes.example.com`).
    public static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        let defaultPort = ["https": 443, "http": 80][scheme]
        let port = url.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }

    /// Creates the service.
    public init(
        store: any ConsoleSessionStore, keys: APIKeyService?, adminToken: String,
        lifetime: TimeInterval = ConsoleSessionService.defaultLifetime, publicURL: URL? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        publicOrigin = publicURL.flatMap(Self.origin(of:))
        self.store = store
        self.keys = keys
        self.adminToken = adminToken
        adminTokenDigest = Digest.sha256(Array(adminToken.utf8)).lowercaseHex
        self.lifetime = lifetime
        self.now = now
    }

    /// A session just opened.
    public struct Opened: Sendable {
        /// The cookie's value (never stored).
        public var secret: String
        /// Who signed in.
        public var principal: IssuerPrincipal
        /// When it ends.
        public var expiresAt: Date
    }

    /// Opens a session for the admin token or an API key's secret; always a new secret, whatever the browser held
    /// before (no session fixation).
    /// - Returns: The session, or `nil` when the token is neither.
    public func signIn(token: String) async throws -> Opened? {
        let token = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, token.utf8.count < 400 else { return nil }
        let principal: IssuerPrincipal
        if SecretToken.constantTimeEqual(token, adminToken) {
            principal = .admin
        } else if let keys, let key = try await keys.principal(secret: token) {
            principal = key
        } else {
            return nil
        }
        let at = now()
        // Ended sessions go when a new one starts: the table stays the size of the sessions in use.
        try await store.deleteEndedConsoleSessions(now: at)
        let secret = "tcs_" + SecretToken.random(length: 43)
        var keyID: String?
        if case .key(let id, _, _) = principal { keyID = id }
        let expiresAt = at.addingTimeInterval(lifetime)
        try await store.insertConsoleSession(ConsoleSessionRecord(
            secretHash: keyID == nil ? adminHash(secret) : Self.hash(secret), keyID: keyID, createdAt: at, expiresAt: expiresAt))
        return Opened(secret: secret, principal: principal, expiresAt: expiresAt)
    }

    /// Who a session's secret stands for, while it lasts and its key is not revoked.
    public func principal(secret: String) async throws -> (principal: IssuerPrincipal, expiresAt: Date)? {
        guard secret.hasPrefix("tcs_"), secret.utf8.count < 200 else { return nil }
        let at = now()
        if let found = try await store.consoleSession(secretHash: Self.hash(secret), now: at), found.session.keyID != nil {
            guard let key = found.key else { return nil }
            return (.key(id: key.id, name: key.name, scope: APIKeyService.scope(of: key)), found.session.expiresAt)
        }
        // An admin session is found only under the admin token in force: a token replaced (leaked, rotated) ends the
        // sessions opened with it, on every process, as revoking a key ends its sessions.
        guard let found = try await store.consoleSession(secretHash: adminHash(secret), now: at), found.session.keyID == nil
        else { return nil }
        return (.admin, found.session.expiresAt)
    }

    /// Ends a session on every process.
    public func signOut(secret: String) async throws {
        guard secret.hasPrefix("tcs_"), secret.utf8.count < 200 else { return }
        if try await !store.deleteConsoleSession(secretHash: Self.hash(secret)) {
            try await store.deleteConsoleSession(secretHash: adminHash(secret))
        }
    }

    /// What an admin session's secret is stored as: its hash bound to the admin token (`Self.hash` of both).
    private func adminHash(_ secret: String) -> Data {
        Self.hash("tessera-console-admin:" + adminTokenDigest + ":" + secret)
    }

    /// The CSRF token of a session: what its state-changing requests carry in `X-CSRF-Token`.
    public static func csrfToken(secret: String) -> String {
        Digest.sha256(Array(("tessera-console-csrf:" + secret).utf8)).lowercaseHex
    }

    static func hash(_ secret: String) -> Data {
        Data(Digest.sha256(Array(secret.utf8)))
    }
}
