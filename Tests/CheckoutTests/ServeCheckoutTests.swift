import AsyncHTTPClient
import Checkout
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import TesseraTestSupport

/// `tessera serve` as a subprocess with a merchant whose `paymentProcessor` is a webhook to a loopback endpoint:
/// a crash between the processor's approval and the commit, and two server processes on one PostgreSQL database.
@Suite("Checkout on tessera serve (subprocesses)", .serialized)
struct ServeCheckoutTests {
    /// One `tessera serve` process.
    final class Server: Sendable {
        let process: ChildProcess
        let base: String
        let port: Int
        let log: URL

        init(folder: URL, database: String, merchant: URL, port: Int, chain: TestChain, name: String,
             environment extra: [String: String] = [:], arguments: [String] = []) throws {
            process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: Subprocess.tesseraPath)
            process.arguments = [
                "serve", "--port", "\(port)", "--database", database,
                "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
                "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem"),
                "--merchant-config", merchant.path, "--log-level", "info",
            ] + arguments  // later flags win: a test may give other credentials
            var environment = ProcessInfo.processInfo.environment
            environment.merge(extra) { $1 }
            process.environment = environment
            log = folder.appendingPathComponent("\(name).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            handle.seekToEndOfFile()
            process.standardOutput = handle
            process.standardError = handle
            base = "http://127.0.0.1:\(port)"
            self.port = port
            try process.run()
        }

        var output: String { String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self) }

        func waitUntilHealthy(_ http: HTTPClient) async throws {
            // Bounded by time, not tries: a refused connection fails at once, and start-up on a busy machine (a new
            // PostgreSQL schema to migrate) can take well over 15 s. The failure says whether the process exited.
            let log = log
            try await ServeProcess.waitUntilHealthy(port: port, process: process) {
                String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
            }
        }

        /// Sends SIGKILL and returns at once (safe inside the endpoint's handler); ``exited()`` waits for the end.
        func kill9() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }

        /// Waits, on a thread of its own, until the process has exited.
        func exited() async throws {
            let process = process
            try await offCooperativePool { process.waitUntilExit() }
        }

        /// Sends SIGTERM and waits for the exit (blocking the caller's thread: the tests run on threads of their own).
        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// Serves `endpoint` on a thread of its own and runs `test` on another, with an HTTP client on the test's loop:
    /// the endpoint answers `tessera serve` and the test sees its answers without either waiting behind the suite's
    /// other work.
    /// - Parameters:
    ///   - endpoint: The payment endpoint stand-in.
    ///   - test: The test, given the endpoint's port and the client.
    static func withEndpoint(_ endpoint: PaymentEndpointStandIn,
                             _ test: @escaping @Sendable (_ port: Int, HTTPClient) async throws -> Void) async throws {
        try await endpoint.serve { port in
            try await EventLoopExecutor.run { executor in
                let http = HTTPClient(eventLoopGroupProvider: .shared(executor.eventLoopGroup))
                do {
                    try await test(port, http)
                } catch {
                    try? await http.shutdown()
                    throw error
                }
                try await http.shutdown()
            }
        }
    }

    /// Writes the merchant configuration: the fixture's catalogue, test Apple root and key, API key, and a webhook
    /// processor posting to `endpointPort`.
    static func writeMerchant(_ fixture: CheckoutFixture, endpoint: PaymentEndpointStandIn, endpointPort: Int,
                              folder: URL, apiKeyFile: Bool = true,
                              configure: @Sendable (inout [String: Any]) -> Void = { _ in }) throws -> URL {
        let secret = folder.appendingPathComponent("webhook.secret")
        try endpoint.secret.write(to: secret)
        var merchant: [String: Any] = [
            "merchantIdentifier": CheckoutFixture.merchantID, "displayName": "Tessera Arena", "countryCode": "US",
            "currencyCode": "USD",
            "tax": ["label": "Sales Tax", "rate": "0.0825"],
            "products": ["TICKET-GA": ["name": "General Admission", "unitPrice": "45.00", "requiresShipping": false,
                                       "passTemplate": "event-ticket", "passFields": ["seat": "GA-{number}"]]],
            "appleRootCertificatePath": fixture.merchant.appleRootCertificatePath ?? "",
            "paymentProcessingKeyPaths": fixture.merchant.paymentProcessingKeyPaths,
            "apiKeyFile": fixture.merchant.apiKeyFile ?? "",
            "paymentProcessor": ["kind": "webhook", "url": "http://127.0.0.1:\(endpointPort)/pay",
                                 "secretFile": secret.path, "timeoutSeconds": TestTime.wholeSeconds(5, limit: 120)],
        ]
        if !apiKeyFile { merchant["apiKeyFile"] = nil }
        configure(&merchant)
        let url = folder.appendingPathComponent("merchant.json")
        try JSONSerialization.data(withJSONObject: merchant).write(to: url)
        return url
    }

    static func request(_ method: HTTPMethod, _ url: String, body: Data? = nil, idempotencyKey: String? = nil,
                        headers: [(String, String)]? = nil) -> HTTPClientRequest
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers ?? [("Authorization", "Bearer \(CheckoutFixture.apiKey)")] {
            request.headers.add(name: name, value: value)
        }
        request.headers.add(name: "Content-Type", value: "application/json")
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }

    static func json(_ http: HTTPClient, _ request: HTTPClientRequest) async throws -> (Int, [String: Any]) {
        let response = try await http.execute(request, timeout: .seconds(Int64(TestTime.seconds(20))))
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any]
        return (Int(response.status.code), object ?? [:])
    }

    static func createTicketSession(_ http: HTTPClient, _ base: String) async throws -> String {
        let (status, session) = try await json(http, request(
            .POST, "\(base)/checkout/v1/sessions", body: Data(#"{"items":[{"sku":"TICKET-GA","quantity":1}]}"#.utf8),
            idempotencyKey: UUID().uuidString))
        guard status == 201, let id = session["id"] as? String else {
            throw CheckoutTestError("create session: \(status) \(session)")
        }
        return id
    }

    @Test("kill -9 after the processor approved, before the commit; after a restart the order is committed once, with its passes")
    func crashAfterApproval() async throws {
        let fixture = try CheckoutFixture()
        let endpoint = PaymentEndpointStandIn()
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-crash")
        try await Self.withEndpoint(endpoint) { endpointPort, http in
            let merchant = try Self.writeMerchant(fixture, endpoint: endpoint, endpointPort: endpointPort, folder: folder)
            let database = "sqlite:\(folder.path)/tessera.sqlite"
            let port = ServeProcess.unusedPort()
            let first = try Server(folder: folder, database: database, merchant: merchant, port: port, chain: chain,
                                   name: "first")
            do {
                try await first.waitUntilHealthy(http)
                let id = try await Self.createTicketSession(http, first.base)
                // The endpoint approves, but the server is killed as the approval is on its way back.
                endpoint.onCall.withLock { $0 = { first.kill9() } }
                let payment = try fixture.paymentSignedNow(minorUnits: 4871, applicationData: Data("tessera-checkout-session:\(id)".utf8),
                                                  shippingContact: CheckoutFixture.ticketContact)
                _ = try? await Self.json(http, Self.request(.POST, "\(first.base)/checkout/v1/sessions/\(id)/authorize",
                                                            body: payment))
                first.kill9()
                try await first.exited()
                endpoint.onCall.withLock { $0 = nil }
                #expect(endpoint.keys == ["\(id)-1"])

                let second = try Server(folder: folder, database: database, merchant: merchant, port: port, chain: chain,
                                        name: "second")
                defer { second.stop() }
                try await second.waitUntilHealthy(http)
                let (_, held) = try await Self.json(http, Self.request(.GET, "\(second.base)/checkout/v1/sessions/\(id)"))
                #expect(["authorizing", "processorUnknown", "authorized"].contains(held["state"] as? String ?? ""))
                // Another payment for the held (or by now paid) session never reaches the processor.
                let another = try fixture.paymentSignedNow(minorUnits: 4871, applicationData: Data("tessera-checkout-session:\(id)".utf8),
                                                  shippingContact: CheckoutFixture.ticketContact)
                let (busy, _) = try await Self.json(http, Self.request(
                    .POST, "\(second.base)/checkout/v1/sessions/\(id)/authorize", body: another))
                #expect(busy == 409)

                let session = try await Self.waitForState("authorized", session: id, on: second, http)
                #expect(session["state"] as? String == "authorized", "\(second.output)")
                let orderId = try #require(session["orderId"] as? String)
                let order = try await Self.waitForPasses(1, order: orderId, on: second, http)
                #expect((order["passes"] as? [Any])?.count == 1, "\(order)")
                #expect(order["status"] as? String == "authorized")
                // One charge: every call for the session carried the same idempotency key and order.
                #expect(endpoint.keys == ["\(id)-1"])
                #expect(Set(endpoint.calls.compactMap { $0.body["orderId"] }) == [orderId])
                // The killed process's call and at least one retry after the restart.
                #expect(endpoint.calls.count >= 2)
            } catch {
                first.kill9()
                throw error
            }
        }
    }

    /// Reads a session until it is in `state` (every 100 ms, for at most `seconds` on a quiet machine, scaled).
    /// - Returns: The session as last read.
    static func waitForState(_ state: String, session id: String, on server: Server, _ http: HTTPClient,
                             seconds: Double = 30) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(TestTime.seconds(seconds))
        var session: [String: Any] = [:]
        while ContinuousClock.now < deadline {
            (_, session) = try await json(http, request(.GET, "\(server.base)/checkout/v1/sessions/\(id)"))
            if session["state"] as? String == state { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return session
    }

    /// Reads an order until it has `count` passes (for at most 10 s on a quiet machine, scaled).
    /// - Returns: The order as last read.
    static func waitForPasses(_ count: Int, order id: String, on server: Server, _ http: HTTPClient) async throws
        -> [String: Any]
    {
        let deadline = ContinuousClock.now + .seconds(TestTime.seconds(10))
        var order: [String: Any] = [:]
        while ContinuousClock.now < deadline {
            (_, order) = try await json(http, request(.GET, "\(server.base)/checkout/v1/orders/\(id)"))
            if (order["passes"] as? [Any])?.count == count { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return order
    }

    @Test("two server processes on one PostgreSQL database: 50 concurrent authorize pairs, one processor call and one order each",
          .enabled(if: TestPostgres.url != nil && !TestPostgres.skipped))
    func postgresTwoProcesses() async throws {
        let url = try #require(TestPostgres.url)
        let fixture = try CheckoutFixture()
        // The processor call lasts long enough for each pair's two attempts to overlap on a loaded machine: at 30 ms,
        // beside the whole suite, every second attempt once came after its first had finished, and none saw
        // `authorizationInProgress`.
        let endpoint = PaymentEndpointStandIn(delay: .milliseconds(300))
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-pg")
        try await Self.withEndpoint(endpoint) { endpointPort, http in
            let merchant = try Self.writeMerchant(fixture, endpoint: endpoint, endpointPort: endpointPort, folder: folder)
            let schema = "checkout_serve_\(UUID().uuidString.prefix(8).lowercased())"
            let database = url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"
            let port = ServeProcess.unusedPort()
            let servers = try (0..<2).map {
                try Server(folder: folder, database: database, merchant: merchant, port: port + $0, chain: chain,
                           name: "server\($0)")
            }
            defer { servers.forEach { $0.stop() } }
            for server in servers { try await server.waitUntilHealthy(http) }
            var sessions: [String] = []
            for index in 0..<50 { sessions.append(try await Self.createTicketSession(http, servers[index % 2].base)) }
            let answers = try await fixture.authorizePairs(bases: servers.map(\.base), sessions: sessions)
            for id in sessions {
                let mine = answers.filter { $0.session == id }
                #expect(mine.map(\.status).sorted() == [200, 409], "\(mine)")
                #expect(endpoint.keys(ofSession: id) == ["\(id)-1"])
                let orderId = try #require(mine.first { $0.status == 200 }?.orderId)
                let (status, order) = try await Self.json(http, Self.request(.GET, "\(servers[0].base)/checkout/v1/orders/\(orderId)"))
                #expect(status == 200)
                #expect(order["sessionId"] as? String == id)
            }
            #expect(endpoint.keys.count == 50)
            #expect(answers.contains { $0.code == "authorizationInProgress" })
        }
    }

    @Test("tessera serve with TESSERA_CHECKOUT_API_KEY: anonymous carts from the catalogue only, a client secret for the session and its sheet, over-limit totals refused")
    func serveAccessAndLimits() async throws {
        let fixture = try CheckoutFixture()
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-access")
        let merchant = try Self.writeMerchant(fixture, endpoint: PaymentEndpointStandIn(), endpointPort: 9, folder: folder,
                                              apiKeyFile: false)
        try await EventLoopExecutor.run { executor in
            let http = HTTPClient(eventLoopGroupProvider: .shared(executor.eventLoopGroup))
            try await Self.serveAccessAndLimits(fixture, chain: chain, folder: folder, merchant: merchant, http: http)
        }
    }

    static func serveAccessAndLimits(_ fixture: CheckoutFixture, chain: TestChain, folder: URL, merchant: URL,
                                     http: HTTPClient) async throws {
        let server = try Server(folder: folder, database: "sqlite:\(folder.path)/tessera.sqlite", merchant: merchant,
                                port: ServeProcess.unusedPort(), chain: chain, name: "access",
                                environment: ["TESSERA_CHECKOUT_API_KEY": CheckoutFixture.apiKey])
        defer { server.stop() }
        do {
            try await server.waitUntilHealthy(http)
            let sessions = "\(server.base)/checkout/v1/sessions"
            let anonymous = [("Content-Type", "application/json")]
            let summary = Data(#"{"summary":{"subtotal":"0.00","tax":"0.00"}}"#.utf8)
            let (refused, error) = try await Self.json(http, Self.request(
                .POST, sessions, body: summary, idempotencyKey: "k-1", headers: anonymous))
            #expect(refused == 401)
            #expect((error["error"] as? [String: Any])?["field"] as? String == "summary")
            let (merchantMade, _) = try await Self.json(http, Self.request(.POST, sessions, body: summary, idempotencyKey: "k-2"))
            #expect(merchantMade == 201)
            // This merchant ships nothing: 25.00 + 99999976 = 100000001.
            let (tooMuch, limit) = try await Self.json(http, Self.request(
                .POST, sessions, body: Data(#"{"summary":{"subtotal":"25.00","tax":"99999976"}}"#.utf8), idempotencyKey: "k-3"))
            #expect(tooMuch == 422)
            #expect((limit["error"] as? [String: Any])?["field"] as? String == "summary")
            #expect(((limit["error"] as? [String: Any])?["message"] as? String)?.contains("100000000") == true)

            let (created, session) = try await Self.json(http, Self.request(
                .POST, sessions, body: Data(#"{"items":[{"sku":"TICKET-GA","quantity":1}]}"#.utf8), idempotencyKey: "k-4",
                headers: anonymous))
            #expect(created == 201)
            let id = try #require(session["id"] as? String)
            let secret = try #require(session["clientSecret"] as? String)
            #expect(try await Self.json(http, Self.request(.GET, "\(sessions)/\(id)", headers: [])).0 == 401)
            #expect(try await Self.json(http, Self.request(.GET, "\(sessions)/\(id)",
                                                           headers: [("Checkout-Client-Secret", secret)])).0 == 200)
            let sheet = try await http.execute(Self.request(.GET, "\(server.base)/checkout/sheet/\(id)", headers: []),
                                               timeout: .seconds(Int64(TestTime.seconds(10))))
            #expect(sheet.status.code == 401)
            let page = try await http.execute(Self.request(
                .GET, "\(server.base)\(try #require(session["sheetURL"] as? String))", headers: []), timeout: .seconds(Int64(TestTime.seconds(10))))
            #expect(page.status.code == 200)
            // A payment with no processor reachable is never a 5xx for the buyer's mistake: a bad token is 400.
            let (bad, _) = try await Self.json(http, Self.request(
                .POST, "\(sessions)/\(id)/authorize", body: Data(#"{"token":{"paymentData":{}}}"#.utf8),
                headers: [("Checkout-Client-Secret", secret)]))
            #expect(bad == 400)
        } catch {
            try await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }
}
