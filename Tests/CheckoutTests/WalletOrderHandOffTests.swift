import Checkout
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OrderModel
import PassBundle
import PassCrypto
import PassModel
import Synchronization
import Testing
import TesseraTestSupport

/// From checkout to Wallet: a paid order becomes a Wallet order, and the authorization result carries Apple Pay JS's
/// `orderDetails` so Wallet adds it to the buyer's device.
@Suite("Checkout hands paid orders to Wallet")
struct WalletOrderHandOffTests {
    static func fixture(issuer: WalletOrderIssuerStandIn, processor: (any PaymentProcessor)? = nil,
                        lease: TimeInterval = 120, logger: Logger = Logger(label: "test.checkout"),
                        walletOrders: Bool = true) throws -> CheckoutFixture {
        try CheckoutFixture(processor: processor, configuration: .init(authorizationLease: lease), logger: logger,
                            walletOrderIssuer: issuer) { merchant in
            merchant.paymentStep = CardPaymentStepTests.step
            if walletOrders { merchant.walletOrders = WalletOrderDataTests.walletOrders }
        }
    }

    /// The result's `orderDetails`, which must be exactly Apple Pay JS's four keys.
    static func orderDetails(_ result: [String: Any]) throws -> [String: String] {
        let details = try #require(result["orderDetails"] as? [String: String], "\(result)")
        #expect(Set(details.keys) == ["orderTypeIdentifier", "orderIdentifier", "webServiceURL", "authenticationToken"])
        return details
    }

    static func expect(_ details: [String: String], equal issued: WalletOrderDetails) {
        #expect(details["orderTypeIdentifier"] == issued.orderTypeIdentifier)
        #expect(details["orderIdentifier"] == issued.orderIdentifier)
        #expect(details["webServiceURL"] == issued.webServiceURL)
        #expect(details["authenticationToken"] == issued.authenticationToken)
    }

    @Test("Apple Pay: orderDetails in the result; the signed order verifies, shows payment and shipping; the confirmation links it")
    func applePay() async throws {
        let issuer = try WalletOrderIssuerStandIn()
        let fixture = try Self.fixture(issuer: issuer)
        try await fixture.withClient { client in
            let id = try await AuthorizationTests.preparedSession(client)
            let payment = try fixture.payment(minorUnits: 8320, applicationData: CheckoutFixture.applicationData(id))
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(result)")
            let orderId = try #require(result["orderId"] as? String)
            let details = try Self.orderDetails(result)
            let issued = try #require(issuer.issued[orderId])
            Self.expect(details, equal: issued.details)
            #expect(details["orderTypeIdentifier"] == WalletOrderIssuerStandIn.orderTypeIdentifier)
            #expect(details["orderIdentifier"] == orderId)

            let report = OrderVerifier(root: issuer.chain.chain.root).verify(data: issued.built.bundle)
            #expect(report.wouldOpen, "\(report.issues)")
            let order = try Order(jsonData: issued.built.orderJSON)
            #expect(order.payment?.paymentMethods == ["Visa ••••1234"])
            #expect(order.payment?.total?.amount == "83.20")
            // Apple's types in the signed order.json itself: every amount a string, the method a string, the charge a
            // PaymentTransaction.
            let signed = try JSONValue(jsonData: issued.built.orderJSON)
            #expect(signed["payment"]?["paymentMethods"] == ["Visa ••••1234"])
            #expect(signed["payment"]?["transactions"]?[0]?["paymentMethod"] == ["displayName": "Visa ••••1234"])
            #expect(signed["payment"]?["transactions"]?[0]?["transactionType"] == "purchase")
            func amounts(_ value: JSONValue) -> [JSONValue] {
                switch value {
                case .object(let members):
                    // A CurrencyAmount's `amount` (a transaction's `amount` is itself a CurrencyAmount object).
                    members.flatMap { $0.key == "amount" && $0.value.objectValue == nil ? [$0.value] : amounts($0.value) }
                case .array(let elements): elements.flatMap(amounts)
                default: []
                }
            }
            let written = amounts(signed)
            #expect(written.count >= 5 && written.allSatisfy { $0.stringValue != nil }, "\(written)")
            #expect(order.lineItems?.map(\.title) == ["The Midnight Echo - General Admission", "Tour T-shirt"])
            guard case .shipping(let shipping)? = order.fulfillments?.first else {
                Issue.record("no shipping fulfillment: \(String(describing: order.fulfillments))")
                return
            }
            #expect(shipping.notes == "Express")
            #expect(shipping.recipient?.address?.postalCode == "95014")
            #expect(order.customer?.emailAddress == "ada@example.test")
            let data = String(decoding: issued.data, as: UTF8.self)
            #expect(!data.contains("4761120010001234") && !data.contains("AOOXGFQ"))

            let (_, confirmation) = try await client.get("/checkout/v1/orders/\(orderId)")
            let walletOrder = try #require(confirmation["walletOrder"] as? [String: String], "\(confirmation)")
            #expect(walletOrder["downloadURL"] == issued.details.downloadURL)
            #expect(walletOrder["authenticationToken"] == issued.details.authenticationToken)
            #expect(try await fixture.store.order(id: orderId)?.walletOrder == issued.details)
            #expect(issuer.calls == 1, "a recorded Wallet order is not issued again")
        }
    }

    @Test("A card payment from the sheet's payment step gets orderDetails too, with its card in the order")
    func card() async throws {
        let issuer = try WalletOrderIssuerStandIn()
        let fixture = try Self.fixture(issuer: issuer, processor: CountingProcessor())
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize",
                                                         CardPaymentStepTests.card())
            #expect(status == .ok, "\(result)")
            let orderId = try #require(result["orderId"] as? String)
            let issued = try #require(issuer.issued[orderId])
            Self.expect(try Self.orderDetails(result), equal: issued.details)
            let order = try Order(jsonData: issued.built.orderJSON)
            #expect(order.payment?.paymentMethods == ["Visa ••••4242"])
            #expect(order.payment?.total?.amount == "48.71")
            #expect(order.fulfillments == nil, "a ticket ships nothing")
        }
    }

    @Test("Without walletOrders no Wallet order is issued and the result has no orderDetails")
    func notConfigured() async throws {
        let issuer = try WalletOrderIssuerStandIn()
        let fixture = try Self.fixture(issuer: issuer, walletOrders: false)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: CheckoutFixture.applicationData(id),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok)
            #expect(result["orderDetails"] == nil)
            let (_, confirmation) = try await client.get("/checkout/v1/orders/\(try #require(result["orderId"] as? String))")
            #expect(confirmation["walletOrder"] == nil)
            #expect(issuer.calls == 0)
        }
    }

    @Test("An issuer that fails leaves the payment a success without orderDetails; reading the confirmation issues the order")
    func issuerFails() async throws {
        let issuer = try WalletOrderIssuerStandIn(failFirst: 1)
        let logs = RecordedLogs()
        let fixture = try Self.fixture(issuer: issuer, logger: logs.logger())
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: CheckoutFixture.applicationData(id),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(result)")
            #expect(result["status"] as? String == "STATUS_SUCCESS")
            #expect(result["orderDetails"] == nil)
            let orderId = try #require(result["orderId"] as? String)
            #expect(try await fixture.store.order(id: orderId)?.walletOrder == nil)
            #expect(try await fixture.store.session(id: id)?.state == .authorized)
            let failure = logs.lines.first { $0.level == .error && $0.message.contains("Wallet order not issued") }
            #expect(failure?.metadata["order"] == orderId, "\(logs.lines.map(\.printed))")
            for line in logs.lines.map(\.printed) {
                #expect(!line.contains("4761120010001234") && !line.contains("AOOXGFQ"), "\(line)")
            }

            let (readStatus, confirmation) = try await client.get("/checkout/v1/orders/\(orderId)")
            #expect(readStatus == .ok)
            let issued = try #require(issuer.issued[orderId])
            let walletOrder = try #require(confirmation["walletOrder"] as? [String: String], "\(confirmation)")
            #expect(walletOrder["orderIdentifier"] == orderId)
            #expect(walletOrder["downloadURL"] == issued.details.downloadURL)
            #expect(try await fixture.store.order(id: orderId)?.walletOrder == issued.details)
            _ = try await client.get("/checkout/v1/orders/\(orderId)")
            #expect(issuer.calls == 2)
        }
    }

    @Test("A processor that gave no answer: recovery commits the order and issues its Wallet order once")
    func recovery() async throws {
        let issuer = try WalletOrderIssuerStandIn()
        let processor = CountingProcessor(failFirst: 1)
        let fixture = try Self.fixture(issuer: issuer, processor: processor, lease: 0)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: CheckoutFixture.applicationData(id),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status.code == 502)
            #expect(result["orderDetails"] == nil)
            #expect(issuer.calls == 0, "nothing is issued before the payment is approved")
            fixture.clock.advance(1)
            #expect(await fixture.service.recoverAuthorizations() == 1)
            let orderId = try #require(try await fixture.store.session(id: id)?.orderId)
            let issued = try #require(issuer.issued[orderId])
            #expect(try await fixture.store.order(id: orderId)?.walletOrder == issued.details)
            let (_, confirmation) = try await client.get("/checkout/v1/orders/\(orderId)")
            #expect((confirmation["walletOrder"] as? [String: String])?["downloadURL"] == issued.details.downloadURL)
            #expect(issuer.issued.count == 1)
        }
    }

    @Test("An authorization that recovery completed first answers the Wallet order recovery recorded")
    func replayAfterRecovery() async throws {
        let issuer = try WalletOrderIssuerStandIn()
        let processor = SlowFirstProcessor()
        let fixture = try Self.fixture(issuer: issuer, processor: processor, lease: 0)
        try await fixture.withClient { client in
            let id = try await AuthorizationStateTests.ticketSession(client)
            let payment = try fixture.payment(minorUnits: 4871, applicationData: CheckoutFixture.applicationData(id),
                                              shippingContact: CheckoutFixture.ticketContact)
            // Held at the processor while recovery runs: on a connection that waits longer than the test client's 20 s.
            let port = try #require(client.port)
            async let first = fixture.authorizeWaitingLong(base: "http://127.0.0.1:\(port)", session: id, payment: payment)
            // Once the first call is with the processor, its lease runs out and recovery charges with the same key.
            let deadline = ContinuousClock.now + .seconds(60)
            while processor.calls == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            fixture.clock.advance(1)
            #expect(await fixture.service.recoverAuthorizations() == 1)
            processor.releaseFirst()
            let (status, body) = try await first
            let result = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(status == 200, "\(result)")
            let orderId = try #require(result["orderId"] as? String)
            let stored = try #require(try await fixture.store.order(id: orderId)?.walletOrder)
            Self.expect(try Self.orderDetails(result), equal: stored)
            #expect(processor.calls == 2)
            #expect(issuer.issued.count == 1)
        }
    }

    @Test("Concurrent authorizations of each session make one order and one Wallet order")
    func concurrent() async throws {
        let issuer = try WalletOrderIssuerStandIn()
        let fixture = try Self.fixture(issuer: issuer, processor: CountingProcessor(delay: .milliseconds(30)))
        try await fixture.withClient { client in
            let port = try #require(client.port)
            var sessions: [String] = []
            for _ in 0..<8 { sessions.append(try await AuthorizationStateTests.ticketSession(client)) }
            let answers = try await fixture.authorizePairs(bases: ["http://127.0.0.1:\(port)"], sessions: sessions)
            #expect(answers.filter { $0.status == 200 }.count == sessions.count, "\(answers)")
            #expect(issuer.issued.count == sessions.count)
            for id in sessions {
                let orderId = try #require(try await fixture.store.session(id: id)?.orderId)
                #expect(try await fixture.store.order(id: orderId)?.walletOrder == issuer.issued[orderId]?.details)
            }
        }
    }
}
