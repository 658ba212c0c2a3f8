import Foundation
import Testing
import TesseraTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Event webhooks against `tessera serve`: signed posts checked by an independent receiver, retries while it fails,
/// delivery after a kill -9, two processes on one PostgreSQL database posting each event once, and the URLs and
/// secrets refused at start-up.
@Suite("tessera serve webhooks")
struct ServeWebhookTests {
    static let passType = OrdersServer.passType

    /// Makes four events on a server: a registration, a change, a void (an update and `pass.voided`).
    static func makeEvents(_ server: ServeProcess, serial: String) async throws {
        func send(_ text: String) async throws -> Int {
            try #require(try await server.request(text, timeout: 30)).status
        }
        func json(_ method: String, _ path: String, _ body: String?, auth: String) -> String {
            var text = "\(method) \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: \(auth)\r\nConnection: close\r\n"
            if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)" } else { text += "\r\n" }
            return text
        }
        let admin = "Bearer \(ServeProcess.adminToken)"
        let created = try #require(try await server.request(json(
            "POST", "/api/v1/passes", #"{"template":"event-ticket","data":{"serialNumber":"\#(serial)"}}"#, auth: admin), timeout: 30))
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let token = try #require(
            (try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["authenticationToken"] as? String)
        let type = try #require(
            (try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["passTypeIdentifier"] as? String)
        #expect(try await send(json("POST", "/v1/devices/dev-\(serial)/registrations/\(type)/\(serial)",
                                    #"{"pushToken":"00aa"}"#, auth: "ApplePass \(token)")) == 201)
        #expect(try await send(json("PATCH", "/api/v1/passes/\(type)/\(serial)",
                                    #"{"data":{"fields":{"seat":"7"}}}"#, auth: admin)) == 200)
        #expect(try await send(json("DELETE", "/api/v1/passes/\(type)/\(serial)", nil, auth: admin)) == 200)
    }

    @Test("a failing receiver gets each event again until it accepts it; after a kill -9 the restarted server delivers the rest, in order and signed")
    func retriesAndCrash() async throws {
        let receiver = try WebhookReceiver(failing: true)
        let first = try await ServeProcess(arguments: receiver.serveArguments)
        try await Self.makeEvents(first, serial: "WH-1")
        // The first event is refused (503) and retried: 1 s, then 2 s later.
        let failed = try await receiver.wait(seconds: 30) { $0.count >= 2 }
        #expect(failed.count >= 2 && failed.allSatisfy { $0.status == 503 })
        #expect(Set(failed.map(\.eventID)).count == 1, "the first event is retried before any later one is sent")
        kill(first.process.processIdentifier, SIGKILL)
        while first.process.isRunning { try await Task.sleep(for: .milliseconds(20)) }

        receiver.failing = false
        let second = try await ServeProcess(arguments: receiver.serveArguments, reusing: first)
        let delivered = try await receiver.wait { requests in requests.filter { $0.status == 200 }.count >= 5 }
        let accepted = delivered.filter { $0.status == 200 }
        #expect(accepted.map { $0.event["type"] as? String ?? "" }
            == ["pass.created", "pass.registered", "pass.updated", "pass.updated", "pass.voided"])
        let signed = delivered.allSatisfy { $0.signatureValid }
        #expect(signed, "the receiver's own HMAC check, on every request")
        let ids = accepted.compactMap { Int64($0.eventID) }
        #expect(ids == ids.sorted() && Set(ids).count == 5)
        #expect(accepted.allSatisfy { ($0.event["id"] as? String) == $0.eventID })
        #expect((accepted[0].event["data"] as? [String: Any])?["serialNumber"] as? String == "WH-1")
        // More events after the restart go out at once.
        try await Self.makeEvents(second, serial: "WH-2")
        let later = try await receiver.wait { $0.filter { $0.status == 200 }.count >= 10 }
        #expect(later.filter { $0.status == 200 }.count == 10)
        _ = try await second.terminate()
        receiver.stop()
    }

    @Test("a receiver that refuses connections is retried on the backoff (1 s, then 2 s), its failure in the system's words")
    func refusedConnections() async throws {
        let receiver = try WebhookReceiver(failing: false)
        let secret = receiver.serveArguments[3]
        receiver.stop()
        let closed = "http://127.0.0.1:\(ServeProcess.unusedPort())/hook"
        let server = try await ServeProcess(arguments: ["--webhook-url", closed, "--webhook-secret-file", secret, "--webhook-allow-private"])
        try await Self.makeEvents(server, serial: "RC-1")
        var retrying: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(TestTime.seconds(30))
        while retrying.count < 3, Date() < deadline {
            let answer = try #require(try await server.request(
                "GET /api/v1/webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\nConnection: close\r\n\r\n",
                timeout: 30))
            let deliveries = (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["deliveries"] as? [[String: Any]] ?? []
            retrying = deliveries.filter { $0["outcome"] as? String == "retrying" }
            if retrying.count < 3 { try await Task.sleep(for: .milliseconds(200)) }
        }
        try #require(retrying.count >= 3, "\(retrying)")
        #expect(retrying.allSatisfy { ($0["detail"] as? String ?? "").contains("Connection refused") }, "\(retrying)")
        // Each failed attempt says when it started and when the next is due: the backoff (1 s, 2 s, 4 s) after the
        // attempt's own time. A refused connection fails at once; with a 5 s connect timeout before each attempt, its
        // own time was 5 s or more. (Gaps between attempts also hold the scheduling of a loaded machine, so they are
        // only checked to be no shorter than the backoff.)
        func date(_ value: Any?) -> Date? {
            (value as? String).flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) }
        }
        let oldest = retrying.compactMap { entry in date(entry["attemptedAt"]).map { ($0, date(entry["nextAttemptAt"])) } }
            .sorted { $0.0 < $1.0 }.prefix(3)
        try #require(oldest.count == 3, "\(retrying)")
        for (index, (attempted, next)) in oldest.enumerated() {
            let backoff = Double(1 << index)
            let next = try #require(next, "attempt \(index + 1) says when the next is due: \(retrying)")
            let own = next.timeIntervalSince(attempted) - backoff
            #expect(own > -0.01 && own < 4.5, "attempt \(index + 1) took \(own) s before its \(backoff) s backoff")
            if index > 0 {
                #expect(attempted.timeIntervalSince(oldest[oldest.startIndex + index - 1].0) >= Double(1 << (index - 1)) - 0.01)
            }
        }
        _ = try await server.terminate()
    }

    @Test("the signing secret from TESSERA_WEBHOOK_SECRET, with no file and with its file's line ending: every event is posted signed with it")
    func secretFromEnvironment() async throws {
        let receiver = try WebhookReceiver()
        let secret = String(decoding: try Data(contentsOf: receiver.secretFile), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Made from the file as a Kubernetes secret `--from-file` is: the line ending comes along, and is dropped as the
        // file's is (the receiver verifies with the file's secret).
        let server = try await ServeProcess(
            arguments: ["--webhook-url", receiver.url, "--webhook-allow-private"],
            environment: ["TESSERA_WEBHOOK_SECRET": secret + "\n"])
        try await Self.makeEvents(server, serial: "ENV-1")
        let delivered = try await receiver.wait { $0.filter { $0.status == 200 }.count >= 5 }
        #expect(delivered.filter { $0.status == 200 }.count == 5)
        let signed = delivered.allSatisfy { $0.signatureValid }
        #expect(signed, "the receiver's HMAC check with the secret the variable held")
        _ = try await server.terminate()
        receiver.stop()
        // A short secret in the variable is refused naming the variable, and never echoed.
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "webhook-env-secret")
        let short = try await Subprocess.tessera(
            ["serve", "--port", "\(ServeProcess.unusedPort())", "--database", "sqlite:\(folder.path)/db.sqlite",
             "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem"),
             "--webhook-url", "https://203.0.113.7/hook"],
            environment: ["TESSERA_WEBHOOK_SECRET": "tiny-s3cret"])
        #expect(short.status == 2, "\(short.stderr)")
        #expect(short.stderr.contains("TESSERA_WEBHOOK_SECRET must hold at least 16 bytes"), "\(short.stderr)")
        #expect(!short.stderr.contains("tiny-s3cret"))
    }

    @Test("two processes on one PostgreSQL database post each event once, in order")
    func twoProcesses() async throws {
        guard !TestPostgres.skipped else { return }
        let receiver = try WebhookReceiver()
        try await OrdersServer.with(.postgres, processes: 2, arguments: receiver.serveArguments) { servers in
            for (index, server) in servers.enumerated() {
                for round in 0..<3 { try await Self.makeEvents(server.serve, serial: "PG-\(index)-\(round)") }
            }
            let requests = try await receiver.wait { $0.filter { $0.status == 200 }.count >= 30 }
            try await Task.sleep(for: .seconds(1))  // a duplicate would arrive by now
            let accepted = receiver.requests.filter { $0.status == 200 }
            let ids = accepted.compactMap { Int64($0.eventID) }
            #expect(ids.count == 30 && Set(ids).count == 30, "\(requests.count) requests: \(ids)")
            let signed = accepted.allSatisfy { $0.signatureValid }
            #expect(signed, "the receiver's own HMAC check")
            // Per pass, the events arrive in the order they happened.
            var perPass: [String: [String]] = [:]
            for request in accepted {
                let serial = (request.event["data"] as? [String: Any])?["serialNumber"] as? String ?? ""
                perPass[serial, default: []].append(request.event["type"] as? String ?? "")
            }
            #expect(perPass.count == 6)
            #expect(perPass.values.allSatisfy { $0 == ["pass.created", "pass.registered", "pass.updated", "pass.updated", "pass.voided"] })
        }
        receiver.stop()
    }

    @Test("private, loopback and plain-http URLs, a missing or short secret and out-of-range settings stop start-up naming the flag")
    func refusedAtStartUp() async throws {
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "webhook-refusals")
        let secret = folder.appendingPathComponent("secret")
        try Data("0123456789abcdef0123".utf8).write(to: secret)
        let short = folder.appendingPathComponent("short")
        try Data("tiny\n".utf8).write(to: short)
        // 32 random-looking bytes that are not UTF-8: refused, not turned into U+FFFD before signing.
        let binary = folder.appendingPathComponent("binary")
        try Data((0..<32).map { UInt8(truncatingIfNeeded: 0x80 + $0 * 7) }).write(to: binary)
        let base = [
            "serve", "--port", "\(ServeProcess.unusedPort())", "--database", "sqlite:\(folder.path)/db.sqlite",
            "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
            "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem"),
        ]
        let url = "--webhook-url", file = "--webhook-secret-file"
        for (flags, flag, expected) in [
            ([url, "https://127.0.0.1/hook", file, secret.path], url, "loopback"),
            ([url, "https://10.1.2.3/hook", file, secret.path], url, "private"),
            ([url, "https://[::1]/hook", file, secret.path], url, "loopback"),
            ([url, "https://169.254.169.254/latest", file, secret.path], url, "link-local"),
            ([url, "http://203.0.113.7/hook", file, secret.path], url, "https"),
            ([url, "not a url", file, secret.path], url, "URL"),
            ([url, "ftp://203.0.113.7/hook", file, secret.path], url, "must be https"),
            ([url, "https://ops:hunter2@203.0.113.7/hook", file, secret.path], url, "credentials"),
            ([url, "https://203.0.113.7/hook", file, folder.appendingPathComponent("absent").path], file, "not found"),
            ([url, "https://203.0.113.7/hook"], file, "needed"),
            ([url, "https://203.0.113.7/hook", file, short.path], file, "16 bytes"),
            ([url, "https://203.0.113.7/hook", file, binary.path], file, "not text (UTF-8)"),
            ([file, secret.path], file, "without --webhook-url"),
            (["--event-retention-days", "0"], "--event-retention-days", "from 1 to 3650"),
            (["--campaign-batch-size", "10001"], "--campaign-batch-size", "from 1 to 10000"),
            (["--apns-connections", "0"], "--apns-connections", "from 1 to 32"),
            (["--apns-in-flight", "1001"], "--apns-in-flight", "from 1 to 1000"),
        ] {
            let result = try await Subprocess.tessera(base + flags)
            #expect(result.status == (["not found", "not text (UTF-8)"].contains(expected) ? 1 : 2), "\(flags): \(result.stderr)")
            #expect(result.stderr.contains(flag) && result.stderr.contains(expected), "\(flags): \(result.stderr)")
            // The allowance is offered only where it would help, and a password in the URL is not repeated.
            let helps = ["loopback", "private", "link-local", "https"].contains(expected)
            #expect(result.stderr.contains("--webhook-allow-private") == helps, "\(flags): \(result.stderr)")
            #expect(!result.stderr.contains("hunter2"), "\(flags): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("db.sqlite").path),
                    "nothing is created before the flags are checked")
        }
    }
}
