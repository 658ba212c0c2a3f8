import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import TesseraTestSupport

/// Who may price a cart and read a buyer's data, coupons that expire while the sheet is open, and the failure
/// answers a buyer sees, all through `tessera serve` with a merchant configuration file.
@Suite("Checkout access, coupons and failure answers on tessera serve (subprocesses)", .serialized)
struct ServeCheckoutAccessTests {
    typealias Serve = ServeCheckoutTests
    typealias Processors = ServeCheckoutProcessorTests

    static let anonymous = [("Content-Type", "application/json")]

    static func secret(_ value: String) -> [(String, String)] { [("Checkout-Client-Secret", value)] }

    @Test("apiKeyFile: free-form prices need the key from the file; unrepresentable and over-limit amounts are refused; the client secret guards the session, its updates and its order; a replayed creation reveals nothing")
    func apiKeyFileAndClientSecret() async throws {
        let fixture = try CheckoutFixture()
        try await Processors.withServe(fixture, endpoint: PaymentEndpointStandIn()) { server, http in
            let sessions = "\(server.base)/checkout/v1/sessions"
            let summary = Data(#"{"summary":{"subtotal":"0.01","tax":"0.00"}}"#.utf8)
            #expect(try await Serve.json(http, Serve.request(.POST, sessions, body: summary, idempotencyKey: "s-1",
                                                             headers: Self.anonymous)).0 == 401)
            #expect(try await Serve.json(http, Serve.request(.POST, sessions, body: summary, idempotencyKey: "s-2",
                                                             headers: [("Authorization", "Bearer sk_test_wrong")])).0 == 401)
            #expect(try await Serve.json(http, Serve.request(.POST, sessions, body: summary, idempotencyKey: "s-3")).0 == 201)

            // Amounts the currency cannot hold or beyond Apple Pay's limit: refused naming the field, nothing stored.
            for (body, field, status) in [
                (#"{"items":[{"name":"Mug","quantity":1,"unitPrice":"4.999"}]}"#, "items[0].unitPrice", [400, 422]),
                (#"{"items":[{"name":"Box","quantity":1,"unitPrice":"999999999999999999999999999999999999999999"}]}"#,
                 "items[0].unitPrice", [422]),
                (#"{"items":[{"name":"Box","quantity":1000,"unitPrice":"100000"}]}"#, "items", [422]),
                (#"{"items":"#, "", [400]),
            ] {
                let key = UUID().uuidString
                let (refused, answer) = try await Serve.json(http, Serve.request(.POST, sessions, body: Data(body.utf8),
                                                                                  idempotencyKey: key))
                #expect(status.contains(refused), "\(body): \(refused) \(answer)")
                if !field.isEmpty { #expect((answer["error"] as? [String: Any])?["field"] as? String == field, "\(answer)") }
                let again = try await http.execute(Serve.request(.POST, sessions, body: summary, idempotencyKey: key),
                                                   timeout: .seconds(30))
                #expect(again.status.code == 201)
                #expect(again.headers["Idempotent-Replayed"].isEmpty)
            }

            let cart = Data(#"{"items":[{"sku":"TICKET-GA","quantity":1}]}"#.utf8)
            let (created, session) = try await Serve.json(http, Serve.request(
                .POST, sessions, body: cart, idempotencyKey: "order-1", headers: Self.anonymous))
            #expect(created == 201)
            let id = try #require(session["id"] as? String)
            let secret = try #require(session["clientSecret"] as? String)
            let path = "\(sessions)/\(id)"
            let contact = Data(#"{"shippingContact":{"locality":"Cupertino","postalCode":"95014","countryCode":"US"}}"#.utf8)
            #expect(try await Serve.json(http, Serve.request(.POST, "\(path)/shipping-contact", body: contact,
                                                             headers: Self.anonymous)).0 == 401)
            #expect(try await Serve.json(http, Serve.request(.POST, "\(path)/shipping-contact", body: contact,
                                                             headers: Self.secret(secret + "x"))).0 == 401)
            #expect(try await Serve.json(http, Serve.request(.POST, "\(path)/shipping-contact", body: contact,
                                                             headers: Self.secret(secret))).0 == 200)

            let payment = try fixture.paymentSignedNow(minorUnits: 4871, applicationData: Data("tessera-checkout-session:\(id)".utf8),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (paid, result) = try await Serve.json(http, Serve.request(.POST, "\(path)/authorize", body: payment,
                                                                          headers: Self.secret(secret)))
            #expect(paid == 200, "\(result)")
            let order = "\(server.base)/checkout/v1/orders/\(try #require(result["orderId"] as? String))"
            let (hiddenStatus, hidden) = try await Serve.json(http, Serve.request(.GET, order, headers: []))
            #expect(hiddenStatus == 401)
            #expect(!String(describing: hidden).contains("Lovelace"))
            let (buyer, shown) = try await Serve.json(http, Serve.request(.GET, order, headers: Self.secret(secret)))
            #expect(buyer == 200)
            #expect((shown["billingContact"] as? [String: Any])?["familyName"] as? String == "Lovelace")
            #expect(try await Serve.json(http, Serve.request(.GET, order)).0 == 200)  // the key from apiKeyFile

            // Replaying the creation with its (guessable) key: the same session, without the secret or the order.
            let (replayed, replay) = try await Serve.json(http, Serve.request(
                .POST, sessions, body: cart, idempotencyKey: "order-1", headers: Self.anonymous))
            #expect(replayed == 201)
            #expect(replay["id"] as? String == id)
            #expect(replay["clientSecret"] == nil)
            #expect(replay["orderId"] == nil)
            #expect(replay["shippingContact"] == nil)
            #expect(!String(describing: replay).contains(secret))
        }
    }

    @Test("A coupon that expires while the sheet is open is honoured for the session; the order keeps its discount line; a new session is told couponCodeExpired")
    func couponExpiringMidSheet() async throws {
        let fixture = try CheckoutFixture()
        // Long enough for the server to start and the coupon to be applied first, on a busy machine too.
        let expires = Date().addingTimeInterval(TestTime.seconds(10))
        let stamp = ISO8601DateFormatter().string(from: expires)
        try await Processors.withServe(fixture, endpoint: PaymentEndpointStandIn(), configure: { merchant in
            merchant["coupons"] = [["code": "SOON", "percentOff": "20", "expires": stamp]]
        }) { server, http in
            let sessions = "\(server.base)/checkout/v1/sessions"
            let id = try await Serve.createTicketSession(http, server.base)
            // 45.00 - 9.00 = 36.00, tax 2.97: 38.97.
            let (_, applied) = try await Serve.json(http, Serve.request(
                .POST, "\(sessions)/\(id)/coupon-code", body: Data(#"{"couponCode":"soon"}"#.utf8)))
            #expect((applied["newTotal"] as? [String: Any])?["amount"] as? String == "38.97",
                    "applied after the coupon expired (the server took over \(TestTime.seconds(10)) s to start?): \(applied)")

            try await Task.sleep(for: .seconds(max(0, expires.timeIntervalSinceNow) + 1.5))
            let (_, read) = try await Serve.json(http, Serve.request(.GET, "\(sessions)/\(id)"))
            let request = try #require(read["paymentRequest"] as? [String: Any])
            #expect((request["total"] as? [String: Any])?["amount"] as? String == "38.97")
            let (_, again) = try await Serve.json(http, Serve.request(
                .POST, "\(sessions)/\(id)/coupon-code", body: Data(#"{"couponCode":"SOON"}"#.utf8)))
            #expect(again["errors"] == nil)
            #expect((again["newTotal"] as? [String: Any])?["amount"] as? String == "38.97")

            let (status, result) = try await Processors.authorize(fixture, http, server, session: id, minorUnits: 3897)
            #expect(status == 200, "\(result)")
            let (_, order) = try await Serve.json(http, Serve.request(
                .GET, "\(server.base)/checkout/v1/orders/\(try #require(result["orderId"] as? String))"))
            #expect(order["couponCode"] as? String == "SOON")
            let lines = try #require(order["lineItems"] as? [[String: Any]])
            #expect(lines.contains { $0["amount"] as? String == "-9.00" }, "\(lines)")

            let late = try await Serve.createTicketSession(http, server.base)
            let (_, update) = try await Serve.json(http, Serve.request(
                .POST, "\(sessions)/\(late)/coupon-code", body: Data(#"{"couponCode":"SOON"}"#.utf8)))
            #expect((update["errors"] as? [[String: Any]])?.first?["code"] as? String == "couponCodeExpired")
            #expect((update["newTotal"] as? [String: Any])?["amount"] as? String == "48.71")
        }
    }

    @Test("Failure answers are ApplePayError codes and short reasons without internals; a token sent to the wrong session still pays its own")
    func failureAnswers() async throws {
        let fixture = try CheckoutFixture()
        let endpoint = PaymentEndpointStandIn()
        try await Processors.withServe(fixture, endpoint: endpoint) { server, http in
            let sessions = "\(server.base)/checkout/v1/sessions"
            let mine = try await Serve.createTicketSession(http, server.base)
            let other = try await Serve.createTicketSession(http, server.base)
            let data = Data("tessera-checkout-session:\(mine)".utf8)
            let payments: [(String, Data)] = [
                ("signatureInvalid", try fixture.paymentSignedNow(minorUnits: 4871, applicationData: data, tamper: true,
                                                         shippingContact: CheckoutFixture.ticketContact)),
                ("amountMismatch", try fixture.paymentSignedNow(minorUnits: 4870, applicationData: data, shippingContact: CheckoutFixture.ticketContact)),
            ]
            for (code, payment) in payments {
                let (_, result) = try await Serve.json(http, Serve.request(.POST, "\(sessions)/\(mine)/authorize",
                                                                           body: payment))
                Self.checkBuyerReadable(result, code: code)
            }
            let good = try fixture.paymentSignedNow(minorUnits: 4871, applicationData: data, shippingContact: CheckoutFixture.ticketContact)
            let (wrong, refused) = try await Serve.json(http, Serve.request(.POST, "\(sessions)/\(other)/authorize", body: good))
            #expect(wrong == 422)
            Self.checkBuyerReadable(refused, code: "applicationDataMismatch")
            let (right, accepted) = try await Serve.json(http, Serve.request(.POST, "\(sessions)/\(mine)/authorize", body: good))
            #expect(right == 200, "\(accepted)")
            #expect(endpoint.calls.count == 1)
        }
    }

    static func checkBuyerReadable(_ result: [String: Any], code: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result["status"] as? String == "STATUS_FAILURE", sourceLocation: sourceLocation)
        #expect(result["code"] as? String == code, "\(result)", sourceLocation: sourceLocation)
        let reason = result["reason"] as? String ?? ""
        let errors = result["errors"] as? [[String: Any]] ?? []
        #expect(errors.count == 1 && errors.first?["code"] as? String == "unknown", "\(result)", sourceLocation: sourceLocation)
        #expect(errors.first?["message"] as? String == reason, sourceLocation: sourceLocation)
        #expect(!reason.isEmpty && reason.count <= 80, "\(reason)", sourceLocation: sourceLocation)
        #expect(reason.range(of: "[0-9a-fA-F]{16}", options: .regularExpression) == nil, "\(reason)",
                sourceLocation: sourceLocation)
        for internalWord in ["OpenSSL", "error:", "hash", "SHA", "minor units", "token"] {
            #expect(!reason.contains(internalWord), "\(reason)", sourceLocation: sourceLocation)
        }
    }
}
