import AsyncHTTPClient
import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Logging
import PaymentToken
import NIOCore
import NIOHTTP1
import Testing
import TesseraTestSupport

@Suite("Webhook and forwardToken payment processors")
struct WebhookProcessorTests {
    static func applicationData(_ id: String) -> Data { CheckoutFixture.applicationData(id) }

    /// Runs `test` with the stand-in endpoint on loopback and a checkout whose processor posts to it. The endpoint
    /// and the checkout each run on a thread of their own. `timeoutSeconds` is the processor's timeout per try on a
    /// quiet machine (scaled by ``TestTime``).
    static func withEndpoint(_ endpoint: PaymentEndpointStandIn, forwardToken: Bool = false, timeoutSeconds: Int = 5,
                             configure: @escaping @Sendable (inout MerchantConfiguration) -> Void = { _ in },
                             _ test: @escaping @Sendable (CheckoutFixture, LiveTestClient) async throws -> Void)
        async throws
    {
        try await endpoint.serve { port in
            let timeoutSeconds = TestTime.wholeSeconds(timeoutSeconds, limit: 120)
            let processor = WebhookPaymentProcessor(
                configuration: .init(url: URL(string: "http://127.0.0.1:\(port)/pay")!, secret: endpoint.secret,
                                     timeoutSeconds: timeoutSeconds, forwardToken: forwardToken),
                logger: Logger(label: "test.webhook"))
            let fixture = try CheckoutFixture(processor: processor) { merchant in
                if forwardToken { merchant.paymentProcessingKeyPaths = [] }
                configure(&merchant)
            }
            do {
                try await fixture.withClient { client in try await test(fixture, client) }
            } catch {
                try await processor.shutdown()
                throw error
            }
            try await processor.shutdown()
        }
    }

    static func ticketSession(_ client: LiveTestClient) async throws -> String {
        try #require(try await client.createSession(["items": [["sku": "TICKET-GA", "quantity": 1]]])["id"] as? String)
    }

    @Test("webhook: the decrypted payment is posted, signed, with the session's idempotency key; the answer decides")
    func approved() async throws {
        let endpoint = PaymentEndpointStandIn()
        try await Self.withEndpoint(endpoint) { fixture, client in
            let id = try await Self.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(result)")
            let call = try #require(endpoint.calls.first)
            // One charge: a try the server timed out on (a busy machine) is sent again with the same key.
            #expect(endpoint.keys == ["\(id)-1"])
            #expect(call.signatureValid)
            #expect(call.idempotencyKey == "\(id)-1")
            #expect(call.body["idempotencyKey"] == "\(id)-1")
            #expect(call.body["amount"] == "48.71")
            #expect(call.body["currencyCode"] == "USD")
            #expect(call.body["network"] == "Visa")
            #expect(call.body["orderId"] == result["orderId"] as? String)
            #expect(call.hasPaymentData && !call.hasToken)
            #expect(call.accountNumber == "4761120010001234")
            let orderId = try #require(result["orderId"] as? String)
            let order = try #require(await fixture.store.order(id: orderId))
            #expect(order.payment.processorReference == "gw-\(id)-1")
        }
    }

    @Test("webhook: 5xx answers are retried with the same idempotency key; one order")
    func retriedOnUnavailable() async throws {
        let endpoint = PaymentEndpointStandIn(unavailableFirst: 2)
        try await Self.withEndpoint(endpoint) { fixture, client in
            let id = try await Self.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (status, _) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok)
            // Two 503s and the approval: at least three calls (more only if a try timed out), one key.
            #expect(endpoint.calls.count >= 3)
            #expect(endpoint.keys == ["\(id)-1"])
        }
    }

    @Test("webhook: a try that times out is retried with the same idempotency key; one order")
    func retriedOnTimeout() async throws {
        // The first answer comes long after the processor's timeout (12 s against 5, both scaled). The processor's
        // three tries, with 250 and 500 ms between them, fit in the test client's read timeout
        // (``LiveTestClient/readTimeout``, 60 s scaled). Unscaled, the retry's 5 s was too short for the first
        // minute of a full run on two cores: all three tries timed out.
        let endpoint = PaymentEndpointStandIn(slowFirst: 1, slowDelay: .seconds(TestTime.wholeSeconds(12)))
        try await Self.withEndpoint(endpoint, timeoutSeconds: 5) { fixture, client in
            let id = try await Self.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(result)")
            // The slow first try is retried; on a loaded machine the second may time out too (three tries in all).
            let keys = endpoint.calls.map(\.idempotencyKey)
            #expect((2...3).contains(keys.count), "\(keys)")
            #expect(Set(keys) == ["\(id)-1"])
            #expect(try #require(await fixture.store.session(id: id)).state == .authorized)
        }
    }

    @Test("webhook: a decline is a 402 with the endpoint's reason; the session stays payable")
    func declined() async throws {
        let endpoint = PaymentEndpointStandIn(decline: true)
        try await Self.withEndpoint(endpoint) { fixture, client in
            let id = try await Self.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status.code == 402)
            #expect(result["reason"] as? String == "Insufficient funds.")
            #expect(try #require(await fixture.store.session(id: id)).state == .pending)
        }
    }

    @Test("forwardToken: the encrypted token is forwarded unopened, with no payment-processing key configured")
    func forwardToken() async throws {
        let endpoint = PaymentEndpointStandIn()
        try await Self.withEndpoint(endpoint, forwardToken: true) { fixture, client in
            let id = try await Self.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(result)")
            let call = try #require(endpoint.calls.first)
            #expect(call.signatureValid)
            #expect(call.hasToken && !call.hasPaymentData)
            let orderId = try #require(result["orderId"] as? String)
            let order = try #require(await fixture.store.order(id: orderId))
            #expect(order.payment.lastFour == "1234")
        }
    }

    @Test("50 concurrent authorize pairs against the webhook: exactly one call and one order per session")
    func concurrentPairs() async throws {
        let endpoint = PaymentEndpointStandIn(delay: .milliseconds(30))
        try await Self.withEndpoint(endpoint) { fixture, client in
            let port = try #require(client.port)
            var sessions: [String] = []
            for _ in 0..<50 { sessions.append(try await Self.ticketSession(client)) }
            let statuses = try await fixture.authorizePairs(bases: ["http://127.0.0.1:\(port)"], sessions: sessions)
            for id in sessions {
                let mine = statuses.filter { $0.session == id }
                #expect(mine.map(\.status).sorted() == [200, 409], "\(mine)")
                #expect(endpoint.keys(ofSession: id) == ["\(id)-1"])
                #expect(try #require(await fixture.store.session(id: id)).state == .authorized)
            }
            #expect(endpoint.keys.count == 50)
            #expect(endpoint.calls.filter { !$0.signatureValid }.isEmpty)
        }
    }

    @Test("paymentProcessor configuration is checked", arguments: [
        (#"{"kind":"development"}"#, false, "paymentProcessor.kind"),
        (#"{"kind":"webhook","url":"http://pay.example.com/x","secretFile":"s"}"#, true, "paymentProcessor.url"),
        (#"{"kind":"webhook","url":"https://pay.example.com/x"}"#, true, "paymentProcessor.secretFile"),
        (#"{"kind":"forwardToken","url":"https://pay.example.com/x","secretFile":"s","timeoutSeconds":0}"#, true,
         "paymentProcessor.timeoutSeconds"),
    ])
    func configuration(processor: String, developmentMode: Bool, field: String) throws {
        let json = #"{"merchantIdentifier":"merchant.test","displayName":"Shop","countryCode":"US","currencyCode":"USD","developmentMode":\#(developmentMode),"paymentProcessor":\#(processor)}"#
        let merchant = try MerchantConfiguration.decode(jsonData: Data(json.utf8))
        #expect { try merchant.validate() } throws: { error in
            (error as? CheckoutError)?.field == field
        }
    }

    @Test("No paymentProcessor outside development mode: authorization is 503 notConfigured and nothing is recorded")
    func noProcessor() async throws {
        var production = CheckoutFixture.merchantConfiguration()
        #expect(try production.makePaymentProcessor(logger: Logger(label: "test")) is NoPaymentProcessor)
        production.developmentMode = true
        #expect(try production.makePaymentProcessor(logger: Logger(label: "test")) is RecordingPaymentProcessor)

        let fixture = try CheckoutFixture(processor: NoPaymentProcessor())
        try await fixture.withClient { client in
            let id = try await Self.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .serviceUnavailable)
            #expect(result["code"] as? String == "notConfigured")
            #expect(try #require(await fixture.store.session(id: id)).state == .pending)
            // The token was not recorded: with a processor it still pays.
            #expect(await fixture.store.insertTransactionIdentifier(
                try ApplePayPaymentToken(jsonData: payment).header.transactionIdHex, sessionId: id, at: .now))
        }
    }
}
