import Foundation
import Testing
import TesseraTestSupport

/// `GET /api/v1/webhooks` and `POST /api/v1/webhooks/retry` against `tessera serve`: the endpoint, each post and what
/// came of it, and a retry asked for by the operator posting the waiting event at once instead of after its backoff.
@Suite("tessera serve webhook status")
struct ServeWebhookStatusTests {
    static func status(_ server: ServeProcess) async throws -> [String: Any] {
        let answer = try #require(try await server.send("GET", "/api/v1/webhooks", headers: ["Authorization: Bearer \(ServeProcess.adminToken)"]))
        try #require(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return try OrdersServer.json(answer.body)
    }

    @Test("the posts and their outcomes; retry now skips the backoff; admin only; no endpoint says so")
    func statusAndRetry() async throws {
        let receiver = try WebhookReceiver(failing: true)
        let server = try await ServeProcess(arguments: receiver.serveArguments)
        defer { receiver.stop() }
        try await ServeWebhookTests.makeEvents(server, serial: "WS-1")
        // Refused four times (503): retried after 1, 2 and 4 s; the next wait is 8 s.
        _ = try await receiver.wait(seconds: 30) { $0.count >= 4 }
        var status = try await Self.status(server)
        #expect((status["endpoint"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
        var deliveries = status["deliveries"] as? [[String: Any]] ?? []
        #expect(deliveries.count >= 3 && deliveries.allSatisfy { $0["outcome"] as? String == "retrying" && $0["status"] as? Int == 503 },
                "\(deliveries)")
        #expect(deliveries.first?["nextAttemptAt"] is String && deliveries.first?["detail"] as? String == "the receiver answered 503")

        // Retry now: the receiver accepts again, and the waiting event comes well before its 8 s.
        receiver.failing = false
        let asked = Date()
        let retry = try #require(try await server.send("POST", "/api/v1/webhooks/retry", headers: ["Authorization: Bearer \(ServeProcess.adminToken)"]))
        let requested = try OrdersServer.json(retry.body)["requestedAt"] as? String
        #expect(retry.status == 202 && requested != nil)
        _ = try await receiver.wait(seconds: 30) { $0.contains { $0.status == 200 } }
        let waited = Date().timeIntervalSince(asked)
        #expect(waited < 5 * TestTime.factor, "the retry came \(waited) s after it was asked for")
        for _ in 0..<50 {
            status = try await Self.status(server)
            deliveries = status["deliveries"] as? [[String: Any]] ?? []
            if deliveries.first?["outcome"] as? String == "delivered" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(deliveries.first?["outcome"] as? String == "delivered" && deliveries.first?["status"] as? Int == 200)

        // Only the admin token sees or retries it.
        let key = try await server.send("POST", "/api/v1/keys", headers: ["Authorization: Bearer \(ServeProcess.adminToken)"],
                                        body: #"{"name":"brand","scope":{"identifiers":["pass.*"],"permissions":["read","write"]}}"#)
        let made = try #require(key)
        let secret = try #require(try OrdersServer.json(made.body)["secret"] as? String)
        #expect(try await server.send("GET", "/api/v1/webhooks", headers: ["Authorization: Bearer \(secret)"])?.status == 403)
        #expect(try await server.send("POST", "/api/v1/webhooks/retry", headers: ["Authorization: Bearer \(secret)"])?.status == 403)
        _ = try await server.terminate()

        // Without an endpoint: null, nothing posted, and a retry is a 404 that says why.
        let plain = try await ServeProcess()
        let none = try await Self.status(plain)
        #expect(none["endpoint"] is NSNull && (none["deliveries"] as? [Any])?.isEmpty == true)
        let refused = try #require(try await plain.send("POST", "/api/v1/webhooks/retry", headers: ["Authorization: Bearer \(ServeProcess.adminToken)"]))
        #expect(refused.status == 404 && String(decoding: refused.body, as: UTF8.self).contains("--webhook-url"))
        _ = try await plain.terminate()
    }

    @Test("a pass's history, newest first; another brand's pass answers as a missing one")
    func history() async throws {
        let server = try await ServeProcess()
        try await ServeWebhookTests.makeEvents(server, serial: "H-1")
        let answer = try #require(try await server.send("GET", "/api/v1/passes/pass.dev.tessera.demo/H-1/events",
                                                         headers: ["Authorization: Bearer \(ServeProcess.adminToken)"]))
        #expect(answer.status == 200)
        let events = (try OrdersServer.json(answer.body)["events"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
        #expect(events == ["pass.voided", "pass.updated", "pass.updated", "pass.registered", "pass.created"], "\(events)")
        let limited = try #require(try await server.send("GET", "/api/v1/passes/pass.dev.tessera.demo/H-1/events?limit=2",
                                                          headers: ["Authorization: Bearer \(ServeProcess.adminToken)"]))
        #expect((try OrdersServer.json(limited.body)["events"] as? [Any])?.count == 2)
        #expect(try await server.send("GET", "/api/v1/passes/pass.dev.tessera.demo/H-1/events?limit=0",
                                      headers: ["Authorization: Bearer \(ServeProcess.adminToken)"])?.status == 400)
        #expect(try await server.send("GET", "/api/v1/passes/pass.dev.tessera.demo/NOPE/events",
                                      headers: ["Authorization: Bearer \(ServeProcess.adminToken)"])?.status == 404)
        let key = try #require(try await server.send("POST", "/api/v1/keys", headers: ["Authorization: Bearer \(ServeProcess.adminToken)"],
                                                     body: #"{"name":"other","scope":{"identifiers":["pass.com.other.*"],"permissions":["read"]}}"#))
        let secret = try #require(try OrdersServer.json(key.body)["secret"] as? String)
        let hidden = try #require(try await server.send("GET", "/api/v1/passes/pass.dev.tessera.demo/H-1/events", headers: ["Authorization: Bearer \(secret)"]))
        let missing = try #require(try await server.send("GET", "/api/v1/passes/pass.dev.tessera.demo/NOPE/events", headers: ["Authorization: Bearer \(secret)"]))
        #expect(hidden.status == 404 && hidden.body == missing.body)
        _ = try await server.terminate()
    }
}
