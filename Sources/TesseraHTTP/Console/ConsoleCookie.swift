import Foundation
import HTTPTypes
import Hummingbird
import PassCrypto
import PassWebService

/// The console's session cookie and the CSRF check of requests that carry it.
enum ConsoleCookie {
    /// The cookie's name.
    static let name = "tessera_console"
    /// The header a state-changing request of a session carries its CSRF token in.
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    /// The session secret of the request's cookie, if it has one of the right form.
    static func secret(of request: Request) -> String? {
        guard let value = request.cookies[name]?.value, value.hasPrefix("tcs_"), value.utf8.count < 200 else { return nil }
        return value
    }

    /// Refuses a state-changing request (anything but GET and HEAD) whose `X-CSRF-Token` is not the session's, or
    /// whose `Origin`, when sent, is not this server's: its `Host`, a proxy's `X-Forwarded-Host`, or the public URL's.
    static func checkCSRF(_ request: Request, secret: String, publicOrigin: String? = nil) throws {
        guard request.method != .get, request.method != .head else { return }
        let expected = ConsoleSessionService.csrfToken(secret: secret)
        guard let given = request.headers[csrfHeader], SecretToken.constantTimeEqual(given, expected) else {
            throw WebServiceError(.forbidden, status: .forbidden,
                                  "X-CSRF-Token: a console request that changes something must carry the session's CSRF token",
                                  field: "X-CSRF-Token")
        }
        if let origin = request.headers[.origin]?.lowercased() {
            let hosts = [request.head.authority, request.headers[HTTPField.Name("X-Forwarded-Host")!]].compactMap { $0?.lowercased() }
            let allowed = hosts.flatMap { ["http://\($0)", "https://\($0)"] } + [publicOrigin?.lowercased()].compactMap { $0 }
            guard allowed.contains(origin) else {
                throw WebServiceError(.forbidden, status: .forbidden, "Origin: \(origin) is not this server's")
            }
        }
    }

    /// Whether the request came to a loopback address over plain HTTP (development: the cookie cannot be `Secure`).
    static func isLoopbackDevelopment(_ request: Request) -> Bool {
        let host = (request.head.authority ?? "").lowercased()
        let bare = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }.dropFirst()) : String(host.split(separator: ":").first ?? "")
        let proto = request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased()
        return proto != "https" && (bare == "localhost" || bare == "::1" || bare.hasPrefix("127."))
    }

    /// Whether the cookie is `Secure`: always when the server's public URL is https (a proxy that ends TLS and
    /// forwards to a loopback address without `X-Forwarded-Proto` must not leave it off), else outside loopback
    /// development.
    static func isSecure(_ request: Request, publicOrigin: String?) -> Bool {
        publicOrigin?.lowercased().hasPrefix("https://") == true || !isLoopbackDevelopment(request)
    }

    /// `Set-Cookie` for a new session: HttpOnly, SameSite=Strict, Secure (``isSecure(_:publicOrigin:)``), ending
    /// with the session.
    static func setting(_ secret: String, expiresAt: Date, path: String, request: Request, publicOrigin: String?) -> String {
        let maxAge = max(0, Int(expiresAt.timeIntervalSinceNow.rounded(.down)))
        return "\(name)=\(secret); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
            + (isSecure(request, publicOrigin: publicOrigin) ? "; Secure" : "")
    }

    /// `Set-Cookie` that removes the cookie.
    static func clearing(path: String, request: Request, publicOrigin: String?) -> String {
        "\(name)=; Path=\(path); Max-Age=0; HttpOnly; SameSite=Strict"
            + (isSecure(request, publicOrigin: publicOrigin) ? "; Secure" : "")
    }
}
