import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraTestSupport

/// The merchant configuration's `paymentProcessor` as `tessera serve` reads it: the webhook with its signature,
/// retries and idempotency keys, `forwardToken`, and `development` only in development mode.
@Suite("Payment processors on tessera serve (subprocesses)", .serialized)
struct ServeCheckoutProcessorTests {
    typealias Serve = ServeCheckoutTests

    /// Runs `test` against `tessera serve` with a merchant configuration whose webhook posts to `endpoint` on
    /// loopback; `configure` changes the configuration first.
    static func withServe(
        _ fixture: CheckoutFixture, endpoint: PaymentEndpointStandIn, environment: [String: String] = [:],
        arguments: [String] = [], configure: @escaping @Sendable (inout [String: Any]) -> Void = { _ in },
        _ test: @escaping @Sendable (ServeCheckoutTests.Server, HTTPClient) async throws -> Void
    ) async throws {
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-processor")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Serve.withEndpoint(endpoint) { endpointPort, http in
            let merchant = try Serve.writeMerchant(fixture, endpoint: endpoint, endpointPort: endpointPort,
                                                   folder: folder, configure: configure)
            let server = try Serve.Server(folder: folder, database: "sqlite:\(folder.path)/tessera.sqlite", merchant: merchant,
                                          port: ServeProcess.unusedPort(), chain: chain, name: "serve",
                                          environment: environment, arguments: arguments)
            do {
                try await server.waitUntilHealthy(http)
                try await test(server, http)
            } catch {
                server.stop()
                throw error
            }
            server.stop()
        }
    }

    static func authorize(_ fixture: CheckoutFixture, _ http: HTTPClient, _ server: ServeCheckoutTests.Server,
                          session id: String, minorUnits: Decimal = 4871) async throws -> (Int, [String: Any]) {
        let payment = try fixture.paymentSignedNow(minorUnits: minorUnits, applicationData: Data("tessera-checkout-session:\(id)".utf8),
                                          shippingContact: CheckoutFixture.ticketContact)
        return try await Serve.json(http, Serve.request(.POST, "\(server.base)/checkout/v1/sessions/\(id)/authorize",
                                                        body: payment))
    }

    @Test("webhook: signed calls; a timed-out try and a 5xx are retried with the same key; a decline, then another card with a new key")
    func webhookRetriesAndKeys() async throws {
        let fixture = try CheckoutFixture()
        // The first call answers after three timeouts (a timeout of 4 s on a quiet machine, scaled like the answer: a
        // busy machine can slow an ordinary answer past 1 s), the second answers 503, the third approves.
        let timeout = TestTime.wholeSeconds(4, limit: 30)
        let endpoint = PaymentEndpointStandIn(unavailableFirst: 2, slowFirst: 1, slowDelay: .seconds(3 * timeout))
        // A lease longer than the three tries, so the recovery worker does not take the held authorization over.
        try await Self.withServe(fixture, endpoint: endpoint,
                                 environment: ["TESSERA_CHECKOUT_AUTHORIZATION_LEASE": "\(4 * timeout)"],
                                 configure: { merchant in
            var processor = merchant["paymentProcessor"] as? [String: Any] ?? [:]
            processor["timeoutSeconds"] = timeout
            merchant["paymentProcessor"] = processor
        }) { server, http in
            let retried = try await Serve.createTicketSession(http, server.base)
            let (status, result) = try await Self.authorize(fixture, http, server, session: retried)
            #expect(status == 200, "\(result) \(server.output)")
            #expect(!server.output.contains("the authorization lease is not longer"), "\(server.output)")
            let orderId = try #require(result["orderId"] as? String)
            #expect(endpoint.calls.count == 3)
            #expect(endpoint.keys == ["\(retried)-1"])
            #expect(endpoint.calls.allSatisfy { $0.signatureValid && $0.hasPaymentData && !$0.hasToken })
            #expect(endpoint.calls.allSatisfy { $0.body["orderId"] == orderId && $0.body["amount"] == "48.71" })
            let (_, order) = try await Serve.json(http, Serve.request(.GET, "\(server.base)/checkout/v1/orders/\(orderId)"))
            #expect(order["status"] as? String == "authorized", "\(order)")

            // The buyer's card is declined: the session is payable again and the next card is a new charge.
            endpoint.declineNext(1)
            let declined = try await Serve.createTicketSession(http, server.base)
            let (refused, refusal) = try await Self.authorize(fixture, http, server, session: declined)
            #expect(refused == 402)
            #expect(refusal["reason"] as? String == "Insufficient funds.")
            let (_, pending) = try await Serve.json(http, Serve.request(.GET, "\(server.base)/checkout/v1/sessions/\(declined)"))
            #expect(pending["state"] as? String == "pending")
            let (paid, _) = try await Self.authorize(fixture, http, server, session: declined)
            #expect(paid == 200)
            // One key per card; a slow answer retried by the server keeps its card's key (and its decision).
            #expect(endpoint.keys(ofSession: declined) == ["\(declined)-1", "\(declined)-2"],
                    "\(endpoint.calls.map(\.idempotencyKey))")
        }
    }

    @Test("webhook: a second authorize while the first is with the processor never reaches it and is told so")
    func secondAuthorize() async throws {
        let fixture = try CheckoutFixture()
        let endpoint = PaymentEndpointStandIn()
        // A lease shorter than three tries of the endpoint's timeout (5 s, scaled): the server warns at start-up.
        try await Self.withServe(fixture, endpoint: endpoint, environment: ["TESSERA_CHECKOUT_AUTHORIZATION_LEASE": "10"]) {
            server, http in
            let id = try await Serve.createTicketSession(http, server.base)
            // The first authorization is with the processor, which holds its answer until the second was refused.
            endpoint.holdAnswers()
            let first = Task { try await Self.authorize(fixture, http, server, session: id).0 }
            #expect(try await endpoint.waitForCalls(1), "\(server.output)")
            let second = try await Self.authorize(fixture, http, server, session: id)
            #expect(second.0 == 409, "\(second)")
            #expect(second.1["code"] as? String == "authorizationInProgress", "\(second)")
            endpoint.releaseAnswers()
            #expect(try await first.value == 200)
            #expect(endpoint.keys == ["\(id)-1"])
            #expect(server.output.contains("the authorization lease is not longer than the payment processor's tries"),
                    "\(server.output)")
            let (again, after) = try await Self.authorize(fixture, http, server, session: id)
            #expect(again == 409)
            #expect(after["code"] as? String == "sessionNotPending")
            #expect(endpoint.keys == ["\(id)-1"])
        }
    }

    @Test("forwardToken: the encrypted token reaches the endpoint unopened; no payment-processing key is configured")
    func forwardToken() async throws {
        let fixture = try CheckoutFixture()
        let endpoint = PaymentEndpointStandIn()
        try await Self.withServe(fixture, endpoint: endpoint, configure: { merchant in
            var processor = merchant["paymentProcessor"] as? [String: Any] ?? [:]
            processor["kind"] = "forwardToken"
            merchant["paymentProcessor"] = processor
            merchant["paymentProcessingKeyPaths"] = [String]()
        }) { server, http in
            let id = try await Serve.createTicketSession(http, server.base)
            let (status, result) = try await Self.authorize(fixture, http, server, session: id)
            #expect(status == 200, "\(result) \(server.output)")
            let call = try #require(endpoint.calls.first)
            #expect(call.signatureValid)
            #expect(call.hasToken && !call.hasPaymentData)
            #expect(endpoint.keys == ["\(id)-1"])
            let orderId = try #require(result["orderId"] as? String)
            let (_, order) = try await Serve.json(http, Serve.request(.GET, "\(server.base)/checkout/v1/orders/\(orderId)"))
            #expect((order["payment"] as? [String: Any])?["displayName"] as? String == "Visa ••••1234 (Apple Pay)", "\(order)")
        }
    }

    @Test("development: refused at start-up without developmentMode; with it, test-authorize pays through the recorder")
    func developmentOnlyInDevelopmentMode() async throws {
        let fixture = try CheckoutFixture()
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-development")
        defer { try? FileManager.default.removeItem(at: folder) }
        let merchant = try Serve.writeMerchant(fixture, endpoint: PaymentEndpointStandIn(), endpointPort: 9, folder: folder) {
            $0["paymentProcessor"] = ["kind": "development"]
        }
        let refused = try await offCooperativePool {
            // Bounded: a server that wrongly starts is stopped after 60 s and the test fails.
            try Subprocess.run("timeout", [
                "60", Subprocess.tesseraPath, "serve", "--port", "\(ServeProcess.unusedPort())", "--database", "sqlite:\(folder.path)/refused.sqlite",
                "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
                "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem"),
                "--merchant-config", merchant.path,
            ])
        }
        let said = refused.stderr + refused.stdout
        #expect(refused.status != 0)
        #expect(said.contains("paymentProcessor.kind"), "\(said)")
        #expect(said.contains("developmentMode"), "\(said)")

        try await Self.withServe(fixture, endpoint: PaymentEndpointStandIn(), configure: { merchant in
            merchant["paymentProcessor"] = ["kind": "development"]
            merchant["developmentMode"] = true
        }) { server, http in
            let id = try await Serve.createTicketSession(http, server.base)
            let (status, result) = try await Serve.json(http, Serve.request(
                .POST, "\(server.base)/checkout/v1/sessions/\(id)/test-authorize", body: Data("{}".utf8)))
            #expect(status == 200, "\(result) \(server.output)")
            #expect(result["status"] as? String == "STATUS_SUCCESS")
        }
    }

    /// Starts `tessera serve` with `merchant` and waits for it to stop, as it does on a configuration it refuses.
    /// - Returns: Its exit status and everything it wrote.
    static func startUp(merchant: URL, chain: TestChain, folder: URL) async throws -> (Int32, String) {
        let run = try await offCooperativePool {
            try Subprocess.run("timeout", [
                "60", Subprocess.tesseraPath, "serve", "--port", "\(ServeProcess.unusedPort())",
                "--database", "sqlite:\(folder.path)/refused.sqlite",
                "--templates", Subprocess.repositoryRoot.appendingPathComponent("PassTemplates").path,
                "--cert", chain.path("pass.pem"), "--key", chain.path("pass.key"), "--wwdr", chain.path("wwdr.pem"),
                "--merchant-config", merchant.path,
            ])
        }
        return (run.status, run.stderr + run.stdout)
    }

    @Test("paymentStep from merchant.json: a bad scriptURL stops start-up naming the key; a card payment reaches the webhook as cardPayment and the sheet allows the step's origins")
    func paymentStepOnServe() async throws {
        let fixture = try CheckoutFixture()
        let chain = try TestChain()
        let folder = try TemporaryDirectory.make(prefix: "serve-payment-step")
        defer { try? FileManager.default.removeItem(at: folder) }
        let merchant = try Serve.writeMerchant(fixture, endpoint: PaymentEndpointStandIn(), endpointPort: 9, folder: folder) {
            $0["paymentStep"] = ["kind": "hostedCard", "scriptURL": "http://shop.example.test/card-step.js"]
        }
        let (status, said) = try await Self.startUp(merchant: merchant, chain: chain, folder: folder)
        #expect(status != 0)
        #expect(said.contains("paymentStep.scriptURL"), "\(said)")

        let endpoint = PaymentEndpointStandIn()
        try await Self.withServe(fixture, endpoint: endpoint, configure: { merchant in
            merchant["paymentStep"] = ["kind": "hostedCard", "scriptURL": "https://shop.example.test/card-step.js",
                                       "origins": ["https://js.gateway.example"]]
        }) { server, http in
            let id = try await Serve.createTicketSession(http, server.base)
            let card = #"{"cardPayment": {"token": "tok_serve_1", "network": "Visa", "lastFour": "4242"}}"#
            let (status, result) = try await Serve.json(http, Serve.request(
                .POST, "\(server.base)/checkout/v1/sessions/\(id)/authorize", body: Data(card.utf8)))
            #expect(status == 200, "\(result) \(server.output)")
            let call = try #require(endpoint.calls.first)
            #expect(call.signatureValid && !call.hasPaymentData && !call.hasToken)
            #expect(call.cardPayment?["token"] == "tok_serve_1")
            #expect(call.body["paymentSource"] == "card")
            #expect(!server.output.contains("tok_serve_1"), "the gateway token was logged")
            let sheet = try await http.execute(Serve.request(.GET, "\(server.base)/checkout/sheet/\(id)"),
                                               timeout: .seconds(Int64(TestTime.seconds(10))))
            let policy = sheet.headers.first(name: "Content-Security-Policy") ?? ""
            #expect(policy.contains("frame-src https://shop.example.test https://js.gateway.example;"), "\(policy)")
        }
    }
}
