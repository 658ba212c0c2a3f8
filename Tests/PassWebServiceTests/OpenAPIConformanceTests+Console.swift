import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TesseraTestSupport

extension OpenAPIConformanceTests {
    /// The console: its pages with and without a session, its assets, sign-in refused and made, the issuer API through
    /// the cookie (pictures, the QR code, identities), CSRF refusals, sign-out.
    func exerciseConsole(_ call: Call, passPath: String) async throws {
        for page in ["/console", "/console/templates", "/console/passes", passPath.replacingOccurrences(of: "/api/v1/", with: "/console/"),
                     "/console/campaigns", "/console/analytics", "/console/events", "/console/keys"] {
            try await call(.get, page, [:], nil)
        }
        try await call(.get, "/console/sign-in", [:], nil)
        try await call(.get, "/console/assets/console.js", [:], nil)
        try await call(.get, "/console/assets/console.css", [:], nil)
        try await call(.get, "/console/session", [:], nil)
        try await call(.delete, "/console/session", [:], nil)
        let json: HTTPFields = [.contentType: "application/json"]
        try await call(.post, "/console/session", json, #"{"token":"wrong"}"#)
        try await call(.post, "/console/session", json, #"{"tok"#)
        try await call(.post, "/console/session", [.contentType: "text/plain"], "token")
        let signedIn = try await call(.post, "/console/session", json, #"{"token":"\#(WebServiceFixture.adminToken)"}"#)
        let secret = signedIn.headers[.setCookie]?.split(separator: ";").first.map(String.init) ?? ""
        let csrf = signedIn.body.json["csrfToken"] as? String ?? ""
        let cookie: HTTPFields = [.cookie: secret]
        try await call(.get, "/console/session", cookie, nil)
        for page in ["/console", "/console/templates", "/console/passes", passPath.replacingOccurrences(of: "/api/v1/", with: "/console/"),
                     "/console/campaigns", "/console/analytics", "/console/events", "/console/keys"] {
            try await call(.get, page, cookie, nil)
        }
        try await call(.get, "\(passPath)/preview", cookie, nil)
        try await call(.get, "\(passPath)/preview?side=back", .admin, nil)
        try await call(.get, "\(passPath)/preview?side=both", .admin, nil)
        try await call(.get, "\(passPath)/preview", [:], nil)
        try await call(.get, "\(passPath)-404/preview", .admin, nil)
        try await call(.get, "\(passPath)/holder-qr", cookie, nil)
        try await call(.get, "\(passPath)/holder-qr", [:], nil)
        try await call(.get, "\(passPath)-404/holder-qr", .admin, nil)
        try await call(.get, "/api/v1/templates/coupon/preview", cookie, nil)
        try await call(.get, "/api/v1/templates/coupon/preview?side=back", .admin, nil)
        try await call(.get, "/api/v1/templates/coupon/preview?side=sideways", .admin, nil)
        try await call(.get, "/api/v1/templates/no-such-template/preview", .admin, nil)
        try await call(.get, "/api/v1/templates/coupon/preview", [:], nil)
        try await call(.get, "/api/v1/templates/store-card-rewards/versions", cookie, nil)
        try await call(.get, "/api/v1/templates/no-such-template/versions", .admin, nil)
        try await call(.get, "/api/v1/templates/coupon/versions", [:], nil)
        try await call(.get, "/api/v1/identities", cookie, nil)
        try await call(.get, "/api/v1/identities", [:], nil)
        try await call(.get, "/api/v1/passes?format=csv&limit=5", cookie, nil)
        try await call(.get, "/api/v1/passes?format=xml", .admin, nil)
        try await call(.get, "/api/v1/events?after=latest", cookie, nil)
        try await call(.get, "\(passPath)/events", cookie, nil)
        try await call(.get, "\(passPath)/events?limit=0", .admin, nil)
        try await call(.get, "\(passPath)-404/events", .admin, nil)
        try await call(.get, "\(passPath)/events", [:], nil)
        try await call(.get, "/api/v1/webhooks", cookie, nil)
        try await call(.get, "/api/v1/webhooks", [:], nil)
        try await call(.post, "/api/v1/webhooks/retry", .admin, nil)
        try await call(.post, "/api/v1/webhooks/retry", [:], nil)
        // A change through the cookie without its CSRF token is refused; with it, signed out.
        try await call(.patch, passPath, cookie.merging([.contentType: "application/json"]), #"{"data":{}}"#)
        try await call(.delete, "/console/session", cookie, nil)
        try await call(.delete, "/console/session", cookie.merging([HTTPField.Name("X-CSRF-Token")!: csrf]), nil)
        try await call(.get, "/console/session", cookie, nil)
    }
}

extension HTTPFields {
    /// These fields and `other`'s.
    func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        merged.append(contentsOf: other)
        return merged
    }
}
