import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PassStore
import PassWebService

/// The issuer console under `/console`: its pages (one HTML shell per page, drawn by the console's own script from
/// the issuer API), its script and style, and its session (`POST`, `GET`, `DELETE /console/session`). The console is a
/// client of the issuer API: its pages call `/api/v1` with the session cookie, under the same scopes as a bearer token.
struct ConsoleRoutes: Sendable {
    let sessions: ConsoleSessionService
    /// The path routes are mounted under (the public URL's path, without a trailing slash).
    let pathPrefix: String
    let maximumBodySize: Int
    /// Sign-in attempts per client address.
    let signInLimiter: RateLimiter
    let now: @Sendable () -> Date

    func add(to group: RouterGroup<WebServiceRequestContext>) {
        let console = group.group("console").add(middleware: ErrorEnvelopeMiddleware())
        console.get(use: home)
        console.get("sign-in", use: signInPage)
        for page in ConsolePage.Kind.allCases where page != .signIn && page != .pass {
            console.get(RouterPath(page.rawValue)) { request, context in try await self.page(page, request, context) }
        }
        console.get("passes/:passTypeIdentifier/:serialNumber") { request, context in try await self.page(.pass, request, context) }
        console.get("assets/console.js") { _, _ in Self.asset(ConsoleScript.source, type: "text/javascript; charset=utf-8") }
        console.get("assets/console.css") { _, _ in Self.asset(ConsoleStyle.css, type: "text/css; charset=utf-8") }
        console.post("session", use: signIn)
        console.get("session", use: session)
        console.delete("session", use: signOut)
    }

    private var base: String { pathPrefix }
    private var cookiePath: String { pathPrefix.isEmpty ? "/" : pathPrefix }

    @Sendable func home(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        Self.redirect(to: base + "/console/templates")
    }

    @Sendable func signInPage(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        ConsolePage(kind: .signIn, base: base).response()
    }

    /// A page: to the sign-in page without a session (coming back here after).
    func page(_ kind: ConsolePage.Kind, _ request: Request, _ context: WebServiceRequestContext) async throws -> Response {
        guard let secret = ConsoleCookie.secret(of: request), try await sessions.principal(secret: secret) != nil else {
            let asked = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
            let next = asked.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return Self.redirect(to: base + "/console/sign-in?next=" + next)
        }
        return ConsolePage(kind: kind, base: base).response()
    }

    private struct SignIn: Decodable {
        var token: String
    }

    /// Who is signed in, what they may do, and the CSRF token the page sends with every change.
    struct SessionView: Encodable {
        var signedInAs: String
        var isAdmin: Bool
        var keyId: String?
        var identifiers: [String]?
        var permissions: [String]
        var expiresAt: String
        var csrfToken: String

        init(_ principal: IssuerPrincipal, expiresAt: Date, secret: String) {
            switch principal {
            case .admin:
                signedInAs = "Administrator"
                isAdmin = true
                permissions = IssuerPermission.allCases.map(\.rawValue)
            case .key(let id, let name, let scope):
                signedInAs = name
                isAdmin = false
                keyId = id
                identifiers = scope.identifiers
                permissions = IssuerPermission.allCases.filter(scope.permissions.contains).map(\.rawValue)
            }
            self.expiresAt = RFC3339.format(expiresAt)
            csrfToken = ConsoleSessionService.csrfToken(secret: secret)
        }
    }

    /// `POST /console/session` `{"token"}`: signs in with the admin token or an API key; a new session every time.
    @Sendable func signIn(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        // A JSON body only: a form posted from another site cannot send one without the browser asking first.
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw WebServiceError(.invalidRequest, status: .unsupportedMediaType, "Content-Type: must be application/json")
        }
        // Failed sign-ins are counted, not successful ones: an administrator signing in often is never kept out, and
        // one guessing is held back whatever the order of its tries.
        if let wait = signInLimiter.retryAfter(context.clientAddress, now: now(), taking: false) {
            throw WebServiceError.rateLimited(
                "too many failed sign-ins: wait \(wait) second\(wait == 1 ? "" : "s")", retryAfter: wait)
        }
        let body = try await JSONBody.decode(SignIn.self, from: request, limit: maximumBodySize)
        // Charged before the attempt and given back when it succeeds: sign-ins whose bodies were held back until the
        // check above had passed for each are still counted one by one.
        if let wait = signInLimiter.retryAfter(context.clientAddress, now: now()) {
            throw WebServiceError.rateLimited(
                "too many failed sign-ins: wait \(wait) second\(wait == 1 ? "" : "s")", retryAfter: wait)
        }
        let opened: ConsoleSessionService.Opened?
        do {
            opened = try await sessions.signIn(token: body.token)
        } catch {
            signInLimiter.giveBack(context.clientAddress)
            throw error
        }
        guard let opened else {
            throw WebServiceError(.unauthorized, status: .unauthorized, "token: not the admin token or a valid API key",
                                  field: "token")
        }
        signInLimiter.giveBack(context.clientAddress)
        // Whatever session the browser held before ends here (no fixation, no second session left behind).
        if let previous = ConsoleCookie.secret(of: request) { try await sessions.signOut(secret: previous) }
        var response = try JSONBody.response(
            SessionView(opened.principal, expiresAt: opened.expiresAt, secret: opened.secret), noStore: true)
        response.headers[.setCookie] = ConsoleCookie.setting(
            opened.secret, expiresAt: opened.expiresAt, path: cookiePath, request: request, publicOrigin: sessions.publicOrigin)
        return response
    }

    /// `GET /console/session`: the signed-in session, or 401.
    @Sendable func session(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        guard let secret = ConsoleCookie.secret(of: request), let found = try await sessions.principal(secret: secret) else {
            throw WebServiceError(.unauthorized, status: .unauthorized, "not signed in")
        }
        return try JSONBody.response(SessionView(found.principal, expiresAt: found.expiresAt, secret: secret), noStore: true)
    }

    /// `DELETE /console/session`: signs out, on every server process (the session is deleted from the store).
    @Sendable func signOut(_ request: Request, context: WebServiceRequestContext) async throws -> Response {
        guard let secret = ConsoleCookie.secret(of: request) else {
            throw WebServiceError(.unauthorized, status: .unauthorized, "not signed in")
        }
        try ConsoleCookie.checkCSRF(request, secret: secret, publicOrigin: sessions.publicOrigin)
        try await sessions.signOut(secret: secret)
        var response = Response(status: .noContent)
        response.headers[.setCookie] = ConsoleCookie.clearing(path: cookiePath, request: request, publicOrigin: sessions.publicOrigin)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [
            .contentType: type, .cacheControl: "no-cache", HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
