import Foundation
import HTTPTypes
import Hummingbird
import PassCrypto
import PassWebService

/// Who may call the issuer API and on what: `Authorization: Bearer <admin token>` (everything) or `Bearer <API key>`
/// (its scope's identifiers, with its permissions), or the console's session cookie standing for either (a request that
/// changes something then carries the session's `X-CSRF-Token`). Sets ``WebServiceRequestContext/issuerPrincipal``.
///
/// Order of checks, so nothing can be learnt about another brand's items: the credential (401), then the permission
/// the method needs (403, the same whether the item exists or not), then the path's type identifier (an identifier
/// outside the key's scope answers exactly as a missing item).
struct IssuerAccessMiddleware: RouterMiddleware {
    let adminToken: String
    let keys: APIKeyService?
    /// The console's sessions, when the console is on.
    var consoleSessions: ConsoleSessionService?
    /// The path parameter holding the type identifier (`passTypeIdentifier`), when the routes have one.
    var typeParameter: String? = "passTypeIdentifier"
    /// What a missing item answers (the route's own not-found).
    var notFound: @Sendable () -> any Error = { IssuerError.notFound }
    /// Only the admin token (key management).
    var adminOnly = false
    /// Refused bearer tokens other than API keys' per client (shared by every group of routes): past its burst the
    /// client's such tokens are answered 429 until the bucket refills, so the admin token cannot be guessed at the
    /// server's request rate.
    var refusedCredentials: RateLimiter?

    func handle(
        _ request: Request, context: WebServiceRequestContext,
        next: (Request, WebServiceRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        // Only guesses at the admin token are limited: an API key's secret is 40 random characters, beyond guessing,
        // and a scanner retrying with a revoked key must not lock out the other gates behind the same address.
        let given = Secrets.credential(scheme: "Bearer", in: request.headers[.authorization])
        let guess = given.map { !Self.isKeyShaped($0) || Self.isKeyShaped(adminToken) } ?? false
        // A guess that is not the admin token is charged before it is looked up (given back if it opens a key):
        // guesses in flight at once are each counted, none slipping past a check made before the others were
        // charged. The admin token itself is only held back while the client is.
        let charged = guess && !(given.map { SecretToken.constantTimeEqual($0, adminToken) } ?? false)
        if guess, let wait = refusedCredentials?.retryAfter(context.clientAddress, now: Date(), taking: charged) {
            throw WebServiceError.rateLimited("too many refused tokens from this client", retryAfter: wait)
        }
        let principal: IssuerPrincipal
        do {
            principal = try await Self.principal(request, adminToken: adminToken, keys: keys, consoleSessions: consoleSessions)
        } catch let error as WebServiceError where error.status == .unauthorized {
            if guess, !charged { _ = refusedCredentials?.retryAfter(context.clientAddress, now: Date()) }
            throw error
        } catch {
            if charged { refusedCredentials?.giveBack(context.clientAddress) }
            throw error
        }
        if charged { refusedCredentials?.giveBack(context.clientAddress) }
        if adminOnly, !principal.isAdmin {
            throw WebServiceError(.forbidden, status: .forbidden, "only the admin token may do this (\(request.uri.path))")
        }
        let permission = Self.permission(for: request)
        guard principal.allows(permission) else {
            throw WebServiceError(.forbidden, status: .forbidden, "this API key has no \(permission.rawValue) permission")
        }
        if let typeParameter, let type = context.parameters.get(typeParameter),
           !principal.covers(type.removingPercentEncoding ?? type)
        {
            throw notFound()
        }
        context.issuerPrincipal = principal
        return try await next(request, context)
    }

    /// The caller of a request: the admin token (compared in constant time), a key not revoked, or (without an
    /// `Authorization` header) a console session whose CSRF token a state-changing request carries.
    static func principal(
        _ request: Request, adminToken: String, keys: APIKeyService?, consoleSessions: ConsoleSessionService? = nil
    ) async throws -> IssuerPrincipal {
        let unauthorized = WebServiceError(
            .unauthorized, status: .unauthorized, "a valid bearer token is required",
            headers: [.wwwAuthenticate: "Bearer realm=\"tessera\""])
        if request.headers[.authorization] == nil, let consoleSessions, let secret = ConsoleCookie.secret(of: request) {
            guard let session = try await consoleSessions.principal(secret: secret) else { throw unauthorized }
            try ConsoleCookie.checkCSRF(request, secret: secret, publicOrigin: consoleSessions.publicOrigin)
            return session.principal
        }
        guard let given = Secrets.credential(scheme: "Bearer", in: request.headers[.authorization]) else { throw unauthorized }
        if SecretToken.constantTimeEqual(given, adminToken) { return .admin }
        guard let keys, let principal = try await keys.principal(secret: String(given)) else { throw unauthorized }
        return principal
    }

    /// Whether a credential has the form of an API key's secret (`tsk_` and 40 characters).
    static func isKeyShaped(_ credential: some StringProtocol) -> Bool {
        credential.hasPrefix("tsk_") && credential.count == 44
    }

    /// `read` for GET and HEAD, `redeem` for a redemption, `write` for everything else.
    static func permission(for request: Request) -> IssuerPermission {
        if request.method == .get || request.method == .head { return .read }
        if request.method == .post, request.uri.path.hasSuffix("/redemptions") { return .redeem }
        return .write
    }
}

/// The issuer API's credentials: the admin token and, when the store keeps them, API keys.
struct IssuerAccess: Sendable {
    let adminToken: String
    let keys: APIKeyService?
    /// The console's sessions, when the console is on.
    var consoleSessions: ConsoleSessionService?
    /// Refused credentials per client, across every group (`nil`: no limit).
    let refusedCredentials: RateLimiter?
    /// Seals the listing cursors API keys are given.
    let cursorSeal: ListingCursorSeal

    init(adminToken: String, keys: APIKeyService?, consoleSessions: ConsoleSessionService? = nil,
         refusedCredentialsPerMinute: Int = 20) {
        self.adminToken = adminToken
        self.keys = keys
        self.consoleSessions = consoleSessions
        refusedCredentials = refusedCredentialsPerMinute > 0
            ? RateLimiter(burst: refusedCredentialsPerMinute, perMinute: refusedCredentialsPerMinute) : nil
        cursorSeal = ListingCursorSeal(adminToken: adminToken)
    }

    /// The access check of a group of routes.
    func middleware(
        typeParameter: String? = "passTypeIdentifier", notFound: @escaping @Sendable () -> any Error = { IssuerError.notFound },
        adminOnly: Bool = false
    ) -> IssuerAccessMiddleware {
        IssuerAccessMiddleware(
            adminToken: adminToken, keys: keys, consoleSessions: consoleSessions, typeParameter: typeParameter,
            notFound: notFound, adminOnly: adminOnly, refusedCredentials: refusedCredentials)
    }
}

extension WebServiceRequestContext {
    /// The issuer API's caller; nothing is visible without one.
    var principal: IssuerPrincipal {
        issuerPrincipal ?? .key(id: "", name: "", scope: IssuerScope(identifiers: [], permissions: []))
    }
}
