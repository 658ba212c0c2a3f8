import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing
import TesseraTestSupport

/// `tessera serve` killed with SIGKILL while the payment processor is answering an authorization, then started again:
/// the interrupted authorization is recovered (the processor asked again with the same idempotency key, the order
/// committed once with its pass) within 15 s of the new process being ready, long before the authorization lease
/// (120 s) runs out; with two processes on PostgreSQL, the live one's own authorization in flight is left alone.
@Suite("Crash recovery on tessera serve (subprocesses)", .serialized)
struct ServeCheckoutRecoveryTests {
    typealias Serve = ServeCheckoutTests

    /// The longest a buyer may wait, from the restarted process's readiness to the committed order.
    static let recoveryBound: Duration = .seconds(15)

    @Test("SQLite: kill -9 while the processor holds its answer; the restarted server commits the order once, within 15 s of being ready")
    func sqlite() async throws {
        let fixture = try CheckoutFixture()
        let endpoint = PaymentEndpointStandIn()
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-recovery")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Serve.withEndpoint(endpoint) { endpointPort, http in
            let merchant = try Serve.writeMerchant(fixture, endpoint: endpoint, endpointPort: endpointPort, folder: folder)
            let database = "sqlite:\(folder.path)/tessera.sqlite"
            let port = ServeProcess.unusedPort()
            // The default lease (120 s): only the recovery of a dead holder can be fast.
            let first = try Serve.Server(folder: folder, database: database, merchant: merchant, port: port, chain: chain,
                                         name: "first")
            let id: String
            do {
                try await first.waitUntilHealthy(http)
                id = try await Serve.createTicketSession(http, first.base)
                try await Self.killWhileProcessorHolds(first, session: id, fixture: fixture, endpoint: endpoint, http: http)
            } catch {
                first.kill9()
                throw error
            }

            let second = try Serve.Server(folder: folder, database: database, merchant: merchant, port: port, chain: chain,
                                          name: "second")
            defer { second.stop() }
            try await second.waitUntilHealthy(http)
            let ready = ContinuousClock.now
            let session = try await Serve.waitForState("authorized", session: id, on: second, http)
            let waited = ContinuousClock.now - ready
            TestProgress.say("SQLite crash recovery", "order committed \(waited) after the restarted server was ready")
            #expect(session["state"] as? String == "authorized", "\(second.output)")
            #expect(waited < Self.recoveryBound, "\(second.output)")
            try await Self.expectOneOrder(session: id, state: session, on: second, endpoint: endpoint, http: http)
        }
    }

    @Test("PostgreSQL, two processes: kill -9 one while the processor holds its answer; after its restart the order is committed once within 15 s, and the other process's authorization in flight is left alone",
          .enabled(if: TestPostgres.url != nil && !TestPostgres.skipped))
    func postgresTwoProcesses() async throws {
        let url = try #require(TestPostgres.url)
        let fixture = try CheckoutFixture()
        let endpoint = PaymentEndpointStandIn()
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-recovery-pg")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Serve.withEndpoint(endpoint) { endpointPort, http in
            // The live process's call waits as long as the endpoint holds it (no try times out meanwhile).
            let merchant = try Serve.writeMerchant(fixture, endpoint: endpoint, endpointPort: endpointPort, folder: folder) {
                var processor = $0["paymentProcessor"] as? [String: Any] ?? [:]
                processor["timeoutSeconds"] = 120
                $0["paymentProcessor"] = processor
            }
            let schema = "checkout_recovery_\(UUID().uuidString.prefix(8).lowercased())"
            let database = url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"
            let ports = [ServeProcess.unusedPort(), ServeProcess.unusedPort()]
            let live = try Serve.Server(folder: folder, database: database, merchant: merchant, port: ports[1], chain: chain,
                                        name: "live")
            defer { live.stop() }
            let victim = try Serve.Server(folder: folder, database: database, merchant: merchant, port: ports[0],
                                          chain: chain, name: "victim")
            let killed: String
            let inFlight: String
            let liveAnswer: Task<(Int, String), any Error>
            do {
                try await live.waitUntilHealthy(http)
                try await victim.waitUntilHealthy(http)
                inFlight = try await Serve.createTicketSession(http, live.base)
                killed = try await Serve.createTicketSession(http, victim.base)
                // The live process's authorization reaches the processor first and stays there until the end.
                endpoint.holdAnswers()
                liveAnswer = Task {
                    let (status, answer) = try await ServeCheckoutProcessorTests.authorize(fixture, http, live,
                                                                                          session: inFlight)
                    return (status, "\(answer)")
                }
                #expect(try await endpoint.waitForCalls(1), "\(live.output)")
                try await Self.killWhileProcessorHolds(victim, session: killed, fixture: fixture, endpoint: endpoint,
                                                       http: http, holding: true)
            } catch {
                victim.kill9()
                endpoint.releaseAnswers()
                throw error
            }

            let restarted = try Serve.Server(folder: folder, database: database, merchant: merchant, port: ports[0],
                                             chain: chain, name: "restarted")
            defer { restarted.stop() }
            try await restarted.waitUntilHealthy(http)
            let ready = ContinuousClock.now
            let session = try await Serve.waitForState("authorized", session: killed, on: restarted, http)
            let waited = ContinuousClock.now - ready
            TestProgress.say("PostgreSQL crash recovery", "order committed \(waited) after the restarted server was ready")
            #expect(session["state"] as? String == "authorized", "\(restarted.output)\n\(live.output)")
            #expect(waited < Self.recoveryBound, "\(restarted.output)\n\(live.output)")

            // Both processes run recovery again meanwhile (it runs every 5 s): the live process's authorization, held
            // longer than a dead process's heartbeat may be silent, stays its own and is never sent again.
            try await Task.sleep(for: .seconds(6))
            let logs = "live:\n\(live.output)\nvictim:\n\(victim.output)\nrestarted:\n\(restarted.output)"
            #expect(endpoint.calls.filter { $0.idempotencyKey == "\(inFlight)-1" }.count == 1, "\(logs)")
            let (_, held) = try await Serve.json(http, Serve.request(.GET, "\(restarted.base)/checkout/v1/sessions/\(inFlight)"))
            #expect(held["state"] as? String == "authorizing", "\(held)")
            endpoint.releaseAnswers()
            let (status, answer) = try await liveAnswer.value
            #expect(status == 200, "\(answer)\n\(live.output)")
            #expect(endpoint.keys(ofSession: inFlight) == ["\(inFlight)-1"])
            #expect(endpoint.calls.filter { $0.idempotencyKey == "\(inFlight)-1" }.count == 1)
            try await Self.expectOneOrder(session: killed, state: session, on: restarted, endpoint: endpoint, http: http)
        }
    }

    /// Posts an authorization of `session` to `server`, kills the server with SIGKILL once the endpoint holds the
    /// call, and waits for it to have exited; then the endpoint answers new calls again (the held one stays held
    /// when `holding`, else it is answered into the closed connection).
    static func killWhileProcessorHolds(_ server: Serve.Server, session id: String, fixture: CheckoutFixture,
                                        endpoint: PaymentEndpointStandIn, http: HTTPClient,
                                        holding: Bool = false) async throws {
        let before = endpoint.calls.count
        endpoint.holdAnswers()
        let authorization = Task { _ = try? await ServeCheckoutProcessorTests.authorize(fixture, http, server, session: id) }
        // A bound against a hang: the authorization is made and sent by this test process, whose two shared threads a
        // loaded machine's synchronous tests can hold for tens of seconds.
        #expect(try await endpoint.waitForCalls(before + 1, within: 30), "\(server.output)")
        #expect(endpoint.keys(ofSession: id) == ["\(id)-1"])
        server.kill9()
        try await server.exited()
        _ = await authorization.value
        if holding { endpoint.stopHolding() } else { endpoint.releaseAnswers() }
    }

    /// The session's order is committed once, with its pass, from one charge (one idempotency key, every call for
    /// the same order).
    static func expectOneOrder(session id: String, state session: [String: Any], on server: Serve.Server,
                               endpoint: PaymentEndpointStandIn, http: HTTPClient) async throws {
        let orderId = try #require(session["orderId"] as? String)
        let order = try await Serve.waitForPasses(1, order: orderId, on: server, http)
        #expect((order["passes"] as? [Any])?.count == 1, "\(order)")
        #expect(order["status"] as? String == "authorized")
        #expect(order["sessionId"] as? String == id)
        #expect(endpoint.keys(ofSession: id) == ["\(id)-1"])
        let calls = endpoint.calls.filter { $0.idempotencyKey == "\(id)-1" }
        #expect(Set(calls.compactMap { $0.body["orderId"] }) == [orderId])
        // The killed process's call and the recovery's.
        #expect(calls.count >= 2)
    }
}
