import Checkout
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import HummingbirdTesting
import Testing
import TesseraTestSupport

/// Paying without Apple Pay: the sheet's payment step posts the gateway's token for the card (`cardPayment`) to
/// `authorize`, which runs it through the same claim, processor call, order and recovery as an Apple Pay payment.
@Suite("Card payments from the sheet's payment step")
struct CardPaymentStepTests {
    static let step = MerchantConfiguration.PaymentStepConfiguration(
        scriptURL: "https://shop.example.test/checkout/card-step.js", origins: ["https://js.gateway.example"])

    static func fixture(processor: CountingProcessor, lease: TimeInterval = 120) throws -> CheckoutFixture {
        try CheckoutFixture(processor: processor, configuration: .init(authorizationLease: lease)) { merchant in
            merchant.paymentStep = step
        }
    }

    static func card(_ token: String = "tok_" + UUID().uuidString) -> [String: Any] {
        ["cardPayment": ["token": token, "network": "Visa", "lastFour": "4242", "type": "credit"],
         "shippingContact": CheckoutFixture.ticketContact]
    }

    @Test("A card payment is charged through the processor with the gateway's token, and the order says how it was paid")
    func charged() async throws {
        let processor = CountingProcessor()
        let fixture = try Self.fixture(processor: processor)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", Self.card("tok_visa_1"))
            #expect(status == .ok, "\(result)")
            #expect(result["status"] as? String == "STATUS_SUCCESS")
            let call = try #require(processor.calls.first)
            #expect(processor.calls.count == 1)
            #expect(call.cardToken == "tok_visa_1")
            #expect(!call.applePay)
            #expect(call.idempotencyKey == "\(id)-1")
            let orderId = try #require(result["orderId"] as? String)
            let (_, order) = try await client.get("/checkout/v1/orders/\(orderId)")
            let payment = try #require(order["payment"] as? [String: Any])
            #expect(payment["method"] as? String == "card")
            #expect(payment["displayName"] as? String == "Visa ••••4242")
            #expect(payment["lastFour"] as? String == "4242")
            #expect((order["passes"] as? [Any])?.count == 1)
            let stored = try #require(await fixture.store.order(id: orderId))
            #expect(stored.payment.transactionIdentifier.hasPrefix("card-"))
            #expect(!stored.payment.transactionIdentifier.contains("tok_visa_1"))
        }
    }

    @Test("A card payment confirming another total than the session's is refused before the processor; the shown total pays")
    func confirmedAmount() async throws {
        let processor = CountingProcessor()
        let fixture = try Self.fixture(processor: processor)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            func card(_ amount: String) -> [String: Any] {
                var body = Self.card()
                var payment = body["cardPayment"] as? [String: Any] ?? [:]
                payment["amount"] = amount
                body["cardPayment"] = payment
                return body
            }
            // The sheet showed 45.00 (say, before an update it had not shown): not charged.
            let (stale, refused) = try await client.post("/checkout/v1/sessions/\(id)/authorize", card("45.00"))
            #expect(stale == .unprocessableContent && refused["code"] as? String == "amountMismatch", "\(refused)")
            #expect(processor.calls.isEmpty)
            let state = await fixture.store.session(id: id)?.state
            #expect(state == .pending)
            let (malformed, named) = try await client.post("/checkout/v1/sessions/\(id)/authorize", card("48,71"))
            #expect((400..<500).contains(malformed.code) && "\(named)".contains("cardPayment.amount"), "\(named)")
            let (paid, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", card("48.71"))
            #expect(paid == .ok && result["status"] as? String == "STATUS_SUCCESS", "\(result)")
            #expect(processor.calls.count == 1)
        }
    }

    @Test("A gateway token pays once: the same token on another session is refused before the processor")
    func tokenUsedOnce() async throws {
        let processor = CountingProcessor()
        let fixture = try Self.fixture(processor: processor)
        try await fixture.withClient { client in
            let first = try await AuthorizationStateTests.ticketSession(client)
            let second = try await AuthorizationStateTests.ticketSession(client)
            let (paid, _) = try await client.post("/checkout/v1/sessions/\(first)/authorize", Self.card("tok_once"))
            #expect(paid == .ok)
            let (again, result) = try await client.post("/checkout/v1/sessions/\(second)/authorize", Self.card("tok_once"))
            #expect(again == .conflict)
            #expect(result["code"] as? String == "transactionReplayed")
            #expect(processor.calls.count == 1)
            #expect(try await fixture.store.session(id: second)?.state == .pending)
        }
    }

    @Test("A network the merchant does not take is refused at authorization, by card step or Apple Pay, before the processor")
    func networkNotAccepted() async throws {
        let processor = CountingProcessor()
        let fixture = try Self.fixture(processor: processor)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            var card = Self.card("tok_jcb")
            card["cardPayment"] = ["token": "tok_jcb", "network": "JCB", "lastFour": "0000", "type": "credit"]
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", card)
            #expect(status == .unprocessableContent)
            #expect(result["code"] as? String == "networkNotAccepted" && result["reason"] as? String == "JCB cards are not accepted.")

            let payment = try fixture.payment(minorUnits: 4871, applicationData: CheckoutFixture.applicationData(id),
                                              shippingContact: CheckoutFixture.ticketContact)
            var posted = try #require(try JSONSerialization.jsonObject(with: payment) as? [String: Any])
            var token = try #require(posted["token"] as? [String: Any])
            token["paymentMethod"] = ["displayName": "Bogus 1234", "network": "Bogus", "type": "debit"]
            posted["token"] = token
            let (refused, answer) = try await client.post("/checkout/v1/sessions/\(id)/authorize", posted)
            #expect(refused == .unprocessableContent && answer["code"] as? String == "networkNotAccepted", "\(answer)")
            #expect(processor.calls.isEmpty)
            #expect(try await fixture.store.session(id: id)?.state == .pending)
            let (paid, _) = try await client.post("/checkout/v1/sessions/\(id)/authorize", Self.card("tok_visa_ok"))
            #expect(paid == .ok)
        }
    }

    @Test("Malformed card payments are refused naming the field, and nothing reaches the processor", arguments: [
        (#"{"cardPayment": "tok_1"}"#, "cardPayment must be an object"),
        (#"{"cardPayment": {"network": "Visa"}}"#, "cardPayment must be an object"),
        (#"{"cardPayment": {"token": ""}}"#, "cardPayment.token"),
        (#"{"cardPayment": {"token": "tok with spaces"}}"#, "cardPayment.token"),
        (#"{"cardPayment": {"token": "\#(String(repeating: "t", count: 8193))"}}"#, "cardPayment.token"),
        (#"{"cardPayment": {"token": "4111 1111 1111 1111"}}"#, "looks like a card number"),
        (#"{"cardPayment": {"token": "4242424242424242"}}"#, "looks like a card number"),
        (#"{"cardPayment": {"token": "tok_1", "lastFour": "42a2"}}"#, "cardPayment.lastFour"),
        (#"{"cardPayment": {"token": "tok_1", "network": "<script>"}}"#, "cardPayment.network"),
        (#"{"cardPayment": {"token": "tok_1", "type": "gold"}}"#, "cardPayment.type"),
        (#"{"cardPayment": {"token": "tok_1"}, "token": {"paymentData": {}}}"#, "The payment could not be read"),
        (#"{"cardPayment": {"token": "tok_1"}, "billingContact": 7}"#, "contact details"),
    ])
    func malformed(body: String, message: String) async throws {
        let processor = CountingProcessor()
        let fixture = try Self.fixture(processor: processor)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: Data(body.utf8))
            #expect(status == .badRequest, "\(result)")
            #expect(result["code"] as? String == "malformedPayment")
            #expect((result["reason"] as? String)?.contains(message) == true, "\(result)")
            #expect(processor.calls.isEmpty)
            #expect(try await fixture.store.session(id: id)?.state == .pending)
        }
    }

    @Test("A shop without a payment step refuses card payments with 422")
    func notAccepted() async throws {
        let processor = CountingProcessor()
        let fixture = try CheckoutFixture(processor: processor)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", Self.card())
            #expect(status == .unprocessableContent)
            #expect(result["code"] as? String == "cardPaymentNotAccepted")
            #expect(processor.calls.isEmpty)
        }
    }

    @Test("Eight card payments at once on one session: one reaches the processor, the rest are told it is in progress")
    func concurrent() async throws {
        let processor = CountingProcessor(delay: .milliseconds(200))
        let fixture = try Self.fixture(processor: processor)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize",
                                                                     Self.card("tok_parallel_\(index)"))
                        return (Int(status.code), result["code"] as? String)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == 200 }.count == 1, "\(answers)")
            #expect(answers.filter { $0.0 == 409 }.count == 7, "\(answers)")
            #expect(processor.calls.count == 1)
            #expect(try await fixture.store.session(id: id)?.state == .authorized)
        }
    }

    @Test("No answer for a card payment: recovery charges the same token with the same key and commits one order")
    func recovered() async throws {
        let processor = CountingProcessor(failFirst: 1)
        let fixture = try Self.fixture(processor: processor, lease: 0)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", Self.card("tok_slow"))
            #expect(status.code == 502)
            #expect(result["code"] as? String == "processorUnknown")
            fixture.clock.advance(1)
            #expect(await fixture.service.recoverAuthorizations() == 1)
            let stored = try #require(await fixture.store.session(id: id))
            #expect(stored.state == .authorized)
            #expect(processor.calls.count == 2)
            #expect(Set(processor.calls.map(\.idempotencyKey)) == ["\(id)-1"])
            #expect(Set(processor.calls.compactMap(\.cardToken)) == ["tok_slow"])
            let (_, order) = try await client.get("/checkout/v1/orders/\(try #require(stored.orderId))")
            #expect((order["payment"] as? [String: Any])?["displayName"] as? String == "Visa ••••4242")
        }
    }

    @Test("webhook: a card payment is posted as cardPayment with paymentSource card, never paymentData or token")
    func webhookBody() async throws {
        let endpoint = PaymentEndpointStandIn()
        try await WebhookProcessorTests.withEndpoint(endpoint, configure: { $0.paymentStep = Self.step }) { _, client in
            let id = try await WebhookProcessorTests.ticketSession(client)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", Self.card("tok_hook"))
            #expect(status == .ok, "\(result)")
            let call = try #require(endpoint.calls.first)
            #expect(call.signatureValid)
            #expect(call.body["paymentSource"] == "card")
            #expect(call.body["amount"] == "48.71")
            #expect(call.cardPayment == ["token": "tok_hook", "network": "Visa", "lastFour": "4242", "type": "credit"])
            #expect(!call.hasPaymentData && !call.hasToken)
        }
    }

    @Test("paymentStep is checked when the configuration is read, naming the key", arguments: [
        (MerchantConfiguration.PaymentStepConfiguration(scriptURL: "http://shop.example.test/step.js"), "paymentStep.scriptURL"),
        (.init(scriptURL: "https://shop.example.test"), "paymentStep.scriptURL"),
        (.init(scriptURL: "https://user@shop.example.test/step.js"), "paymentStep.scriptURL"),
        (.init(scriptURL: "https://shop.example.test/step.js", origins: ["https://js.gateway.example/v3"]), "paymentStep.origins[0]"),
        (.init(scriptURL: "https://shop.example.test/step.js", origins: ["https://a.example", "https://b.example; script-src *"]),
         "paymentStep.origins[1]"),
    ])
    func configurationChecked(step: MerchantConfiguration.PaymentStepConfiguration, key: String) throws {
        var merchant = CheckoutFixture.merchantConfiguration()
        merchant.developmentMode = true
        merchant.paymentStep = step
        let error = try #require(throws: CheckoutError.self) { try merchant.validate() }
        #expect(error.field == key, "\(error)")
    }

    @Test("A payment step needs a processor outside development mode; the sheet's policy allows its origins only")
    func needsProcessorAndPolicy() async throws {
        var merchant = CheckoutFixture.merchantConfiguration()
        merchant.paymentStep = Self.step
        let error = try #require(throws: CheckoutError.self) {
            try CheckoutService(merchant: merchant, processor: try merchant.makePaymentProcessor(logger: Logger(label: "t")),
                                logger: Logger(label: "t"))
        }
        #expect(error.field == "paymentStep")

        let fixture = try Self.fixture(processor: CountingProcessor())
        try await fixture.withClient { client in
            let session = try await client.createSession(["items": [["sku": "TICKET-GA", "quantity": 1]]])
            let sheet = try #require(session["sheetURL"] as? String)
            try await client.execute(uri: sheet, method: .get) { response in
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("script-src 'unsafe-inline' https://shop.example.test https://js.gateway.example;"))
                #expect(policy.contains("frame-src https://shop.example.test https://js.gateway.example;"))
                #expect(policy.contains("connect-src 'self' https://shop.example.test https://js.gateway.example;"))
                #expect(!policy.contains("*"))
                let html = String(buffer: response.body)
                #expect(html.contains("https://shop.example.test/checkout/card-step.js"))
            }
        }
    }
}
