import Foundation
import Testing
import TesseraTestSupport

/// The console's sessions over HTTP against `tessera serve`: sign-in with the admin token or an API key, the cookie's
/// attributes, a new secret at every sign-in (no fixation), the CSRF token on every change, a key's scope through the
/// cookie exactly as through its bearer token, and sign-out and revocation ending the session on every process.
@Suite("tessera serve: console sessions")
struct ServeConsoleSessionTests {
    /// Signs in; returns the cookie's secret, the `Set-Cookie` header and the session's answer.
    static func signIn(_ send: (String, String, [String], String?) async throws -> (status: Int, head: String, body: Data),
                       token: String, headers: [String] = []) async throws -> (secret: String, setCookie: String, json: [String: Any]) {
        let answer = try await send("POST", "/console/session", ["Content-Type: application/json"] + headers,
                                    String(decoding: try JSONSerialization.data(withJSONObject: ["token": token]), as: UTF8.self))
        try #require(answer.status == 200, "\(answer.head)\(String(decoding: answer.body, as: UTF8.self))")
        let setCookie = try #require(OrdersServer.header("Set-Cookie", in: answer.head))
        let value = try #require(setCookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        return (value, setCookie, try OrdersServer.json(answer.body))
    }

    static func cookie(_ secret: String) -> String { "Cookie: tessera_console=\(secret)" }

    @Test("pages need a session; sign-in, the cookie, fixation, CSRF, sign-out and a revoked key")
    func session() async throws {
        try await OrdersServer.with(.sqlite) { server in
            let send = { (method: String, path: String, headers: [String], body: String?) in
                try await server.send(method, path, headers: headers, body: body)
            }
            // Without a session every page leads to sign-in, and back.
            let page = try await server.send("GET", "/console/passes?template=event-ticket")
            #expect(page.status == 303)
            #expect(OrdersServer.header("Location", in: page.head) == "/console/sign-in?next=%2Fconsole%2Fpasses%3Ftemplate%3Devent%2Dticket")
            let signInPage = try await server.send("GET", "/console/sign-in")
            #expect(signInPage.status == 200)
            let policy = try #require(OrdersServer.header("Content-Security-Policy", in: signInPage.head))
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline") && policy.contains("frame-ancestors 'none'"))
            #expect(try await server.send("GET", "/console/session").status == 401)

            // Wrong tokens, and bodies that are not JSON.
            let wrong = try await server.send("POST", "/console/session", headers: ["Content-Type: application/json"], body: #"{"token":"nope"}"#)
            #expect(wrong.status == 401 && String(decoding: wrong.body, as: UTF8.self).contains("\"field\":\"token\""))
            let form = try await server.send("POST", "/console/session", headers: ["Content-Type: application/x-www-form-urlencoded"],
                                             body: "token=\(ServeProcess.adminToken)")
            #expect(form.status == 415)
            #expect(try await server.send("POST", "/console/session", headers: ["Content-Type: application/json"], body: "{").status == 400)

            // Fixation: a cookie the browser already held (an attacker's choice) is replaced and never works.
            let planted = "tcs_" + String(repeating: "a", count: 43)
            let loopback = "Host: 127.0.0.1:\(server.serve.port)"
            let admin = try await Self.signIn(send, token: ServeProcess.adminToken, headers: [Self.cookie(planted), loopback])
            #expect(admin.secret != planted && admin.secret.hasPrefix("tcs_"))
            #expect(try await server.send("GET", "/console/session", headers: [Self.cookie(planted)]).status == 401)
            #expect(admin.setCookie.contains("HttpOnly") && admin.setCookie.contains("SameSite=Strict") && admin.setCookie.contains("Path=/"))
            #expect(!admin.setCookie.contains("Secure"), "plain HTTP on loopback: development")
            #expect(admin.json["signedInAs"] as? String == "Administrator" && admin.json["isAdmin"] as? Bool == true)
            let csrf = try #require(admin.json["csrfToken"] as? String)
            // Outside loopback development the cookie is Secure.
            let proxied = try await Self.signIn(send, token: ServeProcess.adminToken, headers: ["X-Forwarded-Proto: https", loopback])
            #expect(proxied.setCookie.contains("; Secure"))
            let named = try await Self.signIn(send, token: ServeProcess.adminToken, headers: ["Host: wallet.example.com"])
            #expect(named.setCookie.contains("; Secure"))
            // Signing in again ends the session the browser held.
            let again = try await Self.signIn(send, token: ServeProcess.adminToken, headers: [Self.cookie(proxied.secret)])
            #expect(try await server.send("GET", "/console/session", headers: [Self.cookie(proxied.secret)]).status == 401)
            #expect(try await server.send("GET", "/console/session", headers: [Self.cookie(again.secret)]).status == 200)

            // The cookie reads the issuer API; a change needs the CSRF token, and another origin is refused.
            let created = try OrdersServer.json(try await server.api(
                "POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{"serialNumber":"CS-1"}}"#).body)
            #expect(created["fields"] == nil, "creation answers without every field's value (the create path stays as it was)")
            let path = "/api/v1/passes/\(OrdersServer.passType)/CS-1"
            #expect(try await server.send("GET", path, headers: [Self.cookie(admin.secret)]).status == 200)
            let change = #"{"data":{"fields":{"seat":"9C"}}}"#
            let noToken = try await server.send("PATCH", path, headers: [Self.cookie(admin.secret)], body: change)
            #expect(noToken.status == 403 && String(decoding: noToken.body, as: UTF8.self).contains("X-CSRF-Token"))
            let badToken = try await server.send("PATCH", path, headers: [Self.cookie(admin.secret), "X-CSRF-Token: \(String(repeating: "0", count: 64))"], body: change)
            #expect(badToken.status == 403)
            let otherSessionsToken = try await server.send("PATCH", path, headers: [Self.cookie(admin.secret), "X-CSRF-Token: \(again.json["csrfToken"] as? String ?? "")"], body: change)
            #expect(otherSessionsToken.status == 403)
            let crossOrigin = try await server.send("PATCH", path, headers: [Self.cookie(admin.secret), "X-CSRF-Token: \(csrf)", "Origin: https://evil.example"], body: change)
            #expect(crossOrigin.status == 403)
            // Behind a proxy that forwards another Host: the forwarded host, or the public URL's origin, is this server's.
            let forwarded = try await server.send("PATCH", path, headers: [Self.cookie(admin.secret), "X-CSRF-Token: \(csrf)",
                                                   "Origin: https://wallet.example.com", "X-Forwarded-Host: wallet.example.com"], body: change)
            #expect(forwarded.status == 200)
            let publicOrigin = try await server.send("PATCH", path, headers: [Self.cookie(admin.secret), "X-CSRF-Token: \(csrf)",
                                                      "Origin: \(server.serve.baseURL)"], body: change)
            #expect(publicOrigin.status == 200, "the default public URL is http://127.0.0.1:<port>")
            let changed = try await server.send("PATCH", path, headers: [Self.cookie(admin.secret), "X-CSRF-Token: \(csrf)", "Origin: \(server.serve.baseURL)", loopback], body: change)
            #expect(changed.status == 200, "\(String(decoding: changed.body, as: UTF8.self))")
            let state = try OrdersServer.json(changed.body)
            #expect((state["fields"] as? [String: Any])?["seat"] as? String == "9C")
            #expect((state["fields"] as? [String: Any])?["venue"] as? String == "Tessera Arena", "the template's values too")
            #expect((state["holderPageURL"] as? String)?.contains("/p/") == true)
            // A signed-in page is served, with its security headers.
            let templates = try await server.send("GET", "/console/templates", headers: [Self.cookie(admin.secret)])
            #expect(templates.status == 200 && String(decoding: templates.body, as: UTF8.self).contains(#"data-page="templates""#))
            #expect(OrdersServer.header("X-Frame-Options", in: templates.head) == "DENY")

            // An API key's session: its scope, its permissions; revoking the key ends it.
            let key = try await server.api("POST", "/api/v1/keys", body: #"{"name":"door staff","scope":{"identifiers":["pass.dev.tessera.*"],"permissions":["read","redeem"]}}"#)
            let keyJSON = try OrdersServer.json(key.body)
            let keySession = try await Self.signIn(send, token: try #require(keyJSON["secret"] as? String))
            #expect(keySession.json["signedInAs"] as? String == "door staff" && keySession.json["permissions"] as? [String] == ["read", "redeem"])
            let keyCSRF = try #require(keySession.json["csrfToken"] as? String)
            #expect(try await server.send("GET", path, headers: [Self.cookie(keySession.secret)]).status == 200)
            #expect(try await server.send("PATCH", path, headers: [Self.cookie(keySession.secret), "X-CSRF-Token: \(keyCSRF)"], body: change).status == 403)
            #expect(try await server.send("GET", "/api/v1/keys", headers: [Self.cookie(keySession.secret)]).status == 403)
            #expect(try await server.api("DELETE", "/api/v1/keys/\(keyJSON["id"] as? String ?? "")").status == 204)
            #expect(try await server.send("GET", path, headers: [Self.cookie(keySession.secret)]).status == 401)
            #expect(try await server.send("GET", "/console/templates", headers: [Self.cookie(keySession.secret)]).status == 303)

            // Sign-out needs the CSRF token too, then the cookie is worthless.
            #expect(try await server.send("DELETE", "/console/session", headers: [Self.cookie(admin.secret)]).status == 403)
            let out = try await server.send("DELETE", "/console/session", headers: [Self.cookie(admin.secret), "X-CSRF-Token: \(csrf)"])
            #expect(out.status == 204 && OrdersServer.header("Set-Cookie", in: out.head)?.contains("Max-Age=0") == true)
            #expect(try await server.send("GET", path, headers: [Self.cookie(admin.secret)]).status == 401)
        }
    }

    @Test("a key's session sees only its brand: another brand's pass by URL answers as a missing one")
    func scope() async throws {
        try await IdentitiesServer.with { server in
            _ = try await server.createPass(template: "event-ticket", serial: "A-1")
            _ = try await server.createPass(template: "store-card", serial: "B-1")
            let brandA = try await ServeKeysTests.key(server, name: "brand-a", identifiers: ["pass.com.brand-a.*"], permissions: ["read", "write"])
            let send = { (method: String, path: String, headers: [String], body: String?) in
                try await server.send(method, path, headers: headers, body: body)
            }
            let session = try await Self.signIn(send, token: brandA.secret)
            let cookie = Self.cookie(session.secret)
            for suffix in ["", "/preview", "/holder-qr", "/pkpass", "/registrations"] {
                let other = try await server.send("GET", "/api/v1/passes/\(IdentitiesServer.loyaltyType)/B-1\(suffix)", headers: [cookie])
                let missing = try await server.send("GET", "/api/v1/passes/\(IdentitiesServer.loyaltyType)/NOPE\(suffix)", headers: [cookie])
                #expect(other.status == 404 && other.body == missing.body, "\(suffix)")
            }
            #expect(try await server.send("GET", "/api/v1/passes/\(IdentitiesServer.ticketType)/A-1/preview", headers: [cookie]).status == 200)
            let otherTemplate = try await server.send("GET", "/api/v1/templates/store-card/preview", headers: [cookie])
            let noTemplate = try await server.send("GET", "/api/v1/templates/no-such-card/preview", headers: [cookie])
            #expect(otherTemplate.status == 404 && noTemplate.status == 404,
                    "\(String(decoding: otherTemplate.body, as: UTF8.self)) \(String(decoding: noTemplate.body, as: UTF8.self))")
            let identities = try OrdersServer.json(try await server.send("GET", "/api/v1/identities", headers: [cookie]).body)
            let listed = ((identities["identities"] as? [[String: Any]]) ?? []).compactMap { $0["identifier"] as? String }
            #expect(listed == [IdentitiesServer.ticketType])
            let all = try OrdersServer.json(try await server.api("GET", "/api/v1/identities").body)
            let every = ((all["identities"] as? [[String: Any]]) ?? [])
            #expect(Set(every.compactMap { $0["identifier"] as? String }) == [IdentitiesServer.ticketType, IdentitiesServer.loyaltyType])
            #expect(every.allSatisfy { ($0["daysLeft"] as? Int ?? -1) > 300 })
        }
    }

    @Test("failed sign-ins are limited, successful ones are not; behind an https public URL the cookie is Secure")
    func signInLimit() async throws {
        let serve = try await ServeProcess(arguments: ["--public-url", "https://wallet.example.com"])
        do {
            let send = { (method: String, path: String, headers: [String], body: String?) in
                try #require(try await serve.send(method, path, headers: headers, body: body))
            }
            // Signing in often is never held back, and a proxy forwarding to loopback without X-Forwarded-Proto
            // still gets a Secure cookie: the public URL is https.
            for _ in 0..<12 {
                let opened = try await Self.signIn(send, token: ServeProcess.adminToken, headers: ["Host: 127.0.0.1:\(serve.port)"])
                #expect(opened.setCookie.contains("; Secure"), "\(opened.setCookie)")
            }
            // Ten failures (more when a crowded machine lets the bucket refill meanwhile, one every 6 s) and the next
            // sign-in waits, the right token's too.
            let signIn = { (token: String) in
                try await send("POST", "/console/session", ["Content-Type: application/json"], #"{"token":"\#(token)"}"#)
            }
            var wrongs: [Int] = []
            var held = false
            for _ in 0..<5 where !held {
                var refused = false
                for _ in 0..<40 where !refused {
                    let wrong = try await signIn("guess")
                    wrongs.append(wrong.status)
                    refused = wrong.status == 429 && OrdersServer.header("Retry-After", in: wrong.head) != nil
                }
                let right = try await signIn(ServeProcess.adminToken)
                held = right.status == 429 && OrdersServer.header("Retry-After", in: right.head) != nil
            }
            #expect(held && Array(wrongs.prefix(10)) == Array(repeating: 401, count: 10), "\(wrongs)")
        } catch {
            _ = try? await serve.terminate()
            throw error
        }
        _ = try await serve.terminate()
    }

    @Test("guesses whose bodies are held back until all have passed the check are still counted one by one")
    func heldBodiesCounted() async throws {
        let serve = try await ServeProcess()
        do {
            let body = #"{"token":"guess-guess-guess"}"#
            var connections: [RawHTTPConnection] = []
            for _ in 0..<16 {
                let connection = try RawHTTPConnection(port: serve.port, timeout: 0.2)
                try connection.send("POST /console/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                    + "Content-Length: \(body.utf8.count)\r\n\r\n")
                connections.append(connection)
            }
            try await Task.sleep(for: .milliseconds(500))  // every handler has looked at the bucket by now
            for connection in connections { try connection.send(body) }
            var statuses: [Int] = []
            for connection in connections {
                let answer = try await connection.reading(until: { $0.contains("\r\n\r\n{") || $0.contains("}") },
                                                          deadline: Date().addingTimeInterval(10))
                statuses.append(Int(answer.text.split(separator: " ").dropFirst().first ?? "") ?? 0)
            }
            // Ten a minute, one more if the bucket refilled meanwhile (one every 6 s).
            #expect(statuses.filter { $0 == 401 }.count <= 11 && statuses.filter { $0 == 429 }.count >= 5, "\(statuses)")
        } catch {
            _ = try? await serve.terminate()
            throw error
        }
        _ = try await serve.terminate()
    }

    @Test("a new admin token ends the sessions opened with the one it replaces")
    func adminTokenReplaced() async throws {
        let first = try await ServeProcess()
        let send = { (method: String, path: String, headers: [String], body: String?) in
            try #require(try await first.send(method, path, headers: headers, body: body))
        }
        let opened: (secret: String, setCookie: String, json: [String: Any])
        do {
            opened = try await Self.signIn(send, token: ServeProcess.adminToken)
            #expect(try await first.send("GET", "/api/v1/templates", headers: [Self.cookie(opened.secret)])?.status == 200)
        } catch {
            _ = try? await first.terminate()
            throw error
        }
        _ = try await first.terminate()
        // The same database, another token (a leaked one replaced): the old token's session opens nothing.
        let tokenFile = first.folder.appendingPathComponent("rotated.token")
        let rotated = "rotated-" + UUID().uuidString
        try Data(rotated.utf8).write(to: tokenFile)
        let second = try await ServeProcess(arguments: ["--admin-token-file", tokenFile.path], reusing: first)
        do {
            #expect(try await second.send("GET", "/api/v1/templates", headers: [Self.cookie(opened.secret)])?.status == 401)
            #expect(try await second.send("GET", "/console/session", headers: [Self.cookie(opened.secret)])?.status == 401)
            let renewed = try await Self.signIn({ try #require(try await second.send($0, $1, headers: $2, body: $3)) }, token: rotated)
            #expect(try await second.send("GET", "/api/v1/templates", headers: [Self.cookie(renewed.secret)])?.status == 200)
        } catch {
            _ = try? await second.terminate()
            throw error
        }
        _ = try await second.terminate()
    }

    @Test("sign-out on one process ends the session on the other (PostgreSQL)")
    func twoProcesses() async throws {
        try await OrdersServer.with(.postgres, processes: 2) { servers in
            let send = { (method: String, path: String, headers: [String], body: String?) in
                try await servers[0].send(method, path, headers: headers, body: body)
            }
            let session = try await Self.signIn(send, token: ServeProcess.adminToken)
            let csrf = try #require(session.json["csrfToken"] as? String)
            #expect(try await servers[1].send("GET", "/api/v1/templates", headers: [Self.cookie(session.secret)]).status == 200)
            #expect(try await servers[0].send("DELETE", "/console/session", headers: [Self.cookie(session.secret), "X-CSRF-Token: \(csrf)"]).status == 204)
            #expect(try await servers[1].send("GET", "/api/v1/templates", headers: [Self.cookie(session.secret)]).status == 401)
            #expect(try await servers[1].send("GET", "/console/session", headers: [Self.cookie(session.secret)]).status == 401)
        }
    }
}
