import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TesseraTestSupport

@Suite("Server prices and buyers' data: API key and client secret")
struct AccessTests {
    static func idempotent(_ key: String, merchant: Bool = false) -> HTTPFields {
        JSONBody.headers(idempotencyKey: key, anonymous: !merchant)
    }

    static func secret(_ value: String) -> HTTPFields { [HTTPField.Name("Checkout-Client-Secret")!: value] }

    @Test("Without the API key only catalogue carts are accepted; free-form items and summaries are 401", arguments: [
        (#"{"items":[{"name":"The Midnight Echo - General Admission","quantity":4,"unitPrice":"0.01"}]}"#, "items[0]"),
        (#"{"items":[{"sku":"TSHIRT","quantity":1},{"name":"Gift","quantity":1,"unitPrice":"1.00"}]}"#, "items[1]"),
        (#"{"summary":{"subtotal":"0.00","tax":"0.00"}}"#, "summary"),
    ])
    func anonymousPrices(body: String, field: String) async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let key = UUID().uuidString
            let refused = try await client.execute(uri: "/checkout/v1/sessions", method: .post,
                                                   headers: Self.idempotent(key), body: ByteBuffer(string: body))
            #expect(refused.status == .unauthorized)
            let error = try #require(try JSONBody.object(refused)["error"] as? [String: Any])
            #expect(error["code"] as? String == "apiKeyRequired")
            #expect(error["field"] as? String == field)
            // A wrong key is refused too, not taken as anonymous.
            var wrong = Self.idempotent(key)
            wrong[.authorization] = "Bearer sk_not_the_key_0000000000000000"
            let badKey = try await client.execute(uri: "/checkout/v1/sessions", method: .post, headers: wrong,
                                                  body: ByteBuffer(string: body))
            #expect(badKey.status == .unauthorized)
            // The merchant's server may send its own prices.
            let merchant = try await client.execute(uri: "/checkout/v1/sessions", method: .post,
                                                    headers: Self.idempotent(key, merchant: true),
                                                    body: ByteBuffer(string: body))
            #expect(merchant.status == .created)
            #expect(merchant.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
        }
    }

    @Test("The API key is read as the issuer API reads its token: the scheme in any case; another scheme is refused")
    func authorizationScheme() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let body = #"{"summary":{"subtotal":"10.00","tax":"0.00"}}"#
            func create(_ authorization: String) async throws -> HTTPResponse.Status {
                var headers = Self.idempotent(UUID().uuidString)
                headers[.authorization] = authorization
                return try await client.execute(uri: "/checkout/v1/sessions", method: .post, headers: headers,
                                                body: ByteBuffer(string: body)).status
            }
            let statuses = [
                try await create("bearer \(CheckoutFixture.apiKey)"), try await create("BEARER  \(CheckoutFixture.apiKey)"),
                try await create("Basic \(CheckoutFixture.apiKey)"), try await create("Bearer"),
                try await create("Bearer sk_not_the_key_0000000000000000"),
            ]
            #expect(statuses == [.created, .created, .unauthorized, .unauthorized, .unauthorized])
        }
    }

    @Test("A buyer's coupon code does not apply to a session the merchant priced (a summary with its own tax)")
    func noBuyerCouponOnASummary() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let (created, session) = try await client.send(
                "/checkout/v1/sessions", method: .post, headers: Self.idempotent(UUID().uuidString, merchant: true)
                    .removingContentType(), body: ["summary": ["subtotal": "100.00", "tax": "8.25"]])
            #expect(created == .created)
            let id = try #require(session["id"] as? String)
            let secret = try #require(session["clientSecret"] as? String)
            let (status, update) = try await client.send("/checkout/v1/sessions/\(id)/coupon-code", method: .post,
                                                         headers: Self.secret(secret), body: ["couponCode": "SAVE10"])
            #expect(status == .ok)
            #expect((update["errors"] as? [[String: Any]])?.first?["code"] as? String == "couponCodeInvalid")
            // The merchant's price as created (its subtotal, tax and shipping), unchanged.
            func total(_ session: [String: Any]) -> String? {
                ((session["paymentRequest"] as? [String: Any])?["total"] as? [String: Any])?["amount"] as? String
            }
            let priced = try #require(total(session))
            #expect((update["newTotal"] as? [String: Any])?["amount"] as? String == priced, "\(update)")
            let (_, stored) = try await client.send("/checkout/v1/sessions/\(id)", headers: Self.secret(secret))
            #expect(stored["couponCode"] == nil)
            #expect(total(stored) == priced)
        }
    }

    @Test("A session, its sheet, its updates and its order need the client secret or the API key")
    func clientSecret() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let (created, session) = try await client.send(
                "/checkout/v1/sessions", method: .post, headers: Self.idempotent(UUID().uuidString, merchant: false)
                    .removingContentType(), body: ["items": [["sku": "TICKET-GA", "quantity": 1]]])
            #expect(created == .created)
            let id = try #require(session["id"] as? String)
            let secret = try #require(session["clientSecret"] as? String)
            #expect(secret.count >= 32)
            #expect(session["sheetURL"] as? String == "/checkout/sheet/\(id)?clientSecret=\(secret)")

            let path = "/checkout/v1/sessions/\(id)"
            #expect(try await client.send(path).0 == .unauthorized)
            #expect(try await client.send(path, headers: Self.secret(secret + "x")).0 == .unauthorized)
            #expect(try await client.send(path, headers: Self.secret(secret)).0 == .ok)
            #expect(try await client.send("/checkout/sheet/\(id)").0 == .unauthorized)
            try await client.execute(uri: "/checkout/sheet/\(id)?clientSecret=\(secret)", method: .get) { response in
                #expect(response.status == .ok)
            }
            #expect(try await client.send("\(path)/coupon-code", method: .post, body: ["couponCode": "SAVE10"]).0
                    == .unauthorized)
            #expect(try await client.send("\(path)/coupon-code", method: .post, headers: Self.secret(secret),
                                          body: ["couponCode": "SAVE10"]).0 == .ok)

            // 45.00 - 4.50 = 40.50, tax 3.34: 43.84.
            let payment = try fixture.payment(minorUnits: 4384, applicationData: Data("tessera-checkout-session:\(id)".utf8),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (paid, result) = try await client.execute(uri: "\(path)/authorize", method: .post,
                                                          headers: Self.secret(secret), body: ByteBuffer(bytes: payment)) {
                ($0.status, try JSONBody.object($0))
            }
            #expect(paid == .ok, "\(result)")
            let order = "/checkout/v1/orders/\(try #require(result["orderId"] as? String))"
            let (anonymous, hidden) = try await client.send(order)
            #expect(anonymous == .unauthorized)
            #expect(!String(describing: hidden).contains("Lovelace"))
            let (buyer, shown) = try await client.send(order, headers: Self.secret(secret))
            #expect(buyer == .ok)
            #expect((shown["billingContact"] as? [String: Any])?["familyName"] as? String == "Lovelace")
            #expect(try await client.get(order).0 == .ok)  // the merchant's API key
        }
    }

    @Test("Replaying a creation without the API key reveals neither the secret, the address nor the order")
    func replayRevealsNothing() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let key = "order-1"  // a guessable key
            let body: [String: Any] = ["items": [["sku": "TICKET-GA", "quantity": 1]]]
            let (_, session) = try await client.send("/checkout/v1/sessions", method: .post,
                                                     headers: Self.idempotent(key).removingContentType(), body: body)
            let id = try #require(session["id"] as? String)
            let secret = try #require(session["clientSecret"] as? String)
            _ = try await client.send("/checkout/v1/sessions/\(id)/shipping-contact", method: .post,
                                      headers: Self.secret(secret),
                                      body: ["shippingContact": ["locality": "Cupertino", "postalCode": "95014",
                                                                 "countryCode": "US"]])
            let payment = try fixture.payment(minorUnits: 4871, applicationData: Data("tessera-checkout-session:\(id)".utf8),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (paid, _) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(paid == .ok)

            let (replayed, replay) = try await client.send("/checkout/v1/sessions", method: .post,
                                                           headers: Self.idempotent(key).removingContentType(), body: body)
            #expect(replayed == .created)
            #expect(replay["id"] as? String == id)
            #expect(replay["clientSecret"] == nil)
            #expect(replay["orderId"] == nil)
            #expect(replay["shippingContact"] == nil)
            #expect(!(replay["sheetURL"] as? String ?? "").contains(secret))
            // The merchant's server using the same (guessable) key is not answered with a session an anonymous caller
            // made, whose secret that caller holds: 409, the key taken by another caller. The merchant reads the
            // session itself with GET and its API key.
            let (conflict, merchant) = try await client.send("/checkout/v1/sessions", method: .post,
                                                             headers: Self.idempotent(key, merchant: true).removingContentType(),
                                                             body: body)
            #expect(conflict == .conflict && merchant["clientSecret"] == nil, "\(merchant)")
            let error = merchant["error"] as? [String: Any]
            #expect(error?["code"] as? String == "idempotencyConflict" && error?["field"] as? String == "Idempotency-Key")
            #expect((error?["message"] as? String ?? "").contains("another caller"), "\(merchant)")
        }
    }

    @Test("A key the merchant's server used is not replayed to an anonymous caller, nor the reverse")
    func keysAreEachCallersKind() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let body: [String: Any] = ["items": [["sku": "TICKET-GA", "quantity": 1]]]
            let (created, first) = try await client.send("/checkout/v1/sessions", method: .post,
                                                         headers: Self.idempotent("order-1043", merchant: true).removingContentType(),
                                                         body: body)
            #expect(created == .created && first["clientSecret"] is String)
            let (anonymous, answer) = try await client.send("/checkout/v1/sessions", method: .post,
                                                            headers: Self.idempotent("order-1043").removingContentType(), body: body)
            #expect(anonymous == .conflict && answer["id"] == nil, "\(answer)")
            let (again, replay) = try await client.send("/checkout/v1/sessions", method: .post,
                                                        headers: Self.idempotent("order-1043", merchant: true).removingContentType(),
                                                        body: body)
            #expect(again == .created && replay["id"] as? String == first["id"] as? String && replay["clientSecret"] is String)
        }
    }
}

extension HTTPFields {
    /// The fields without `Content-Type` (``LiveTestClient/send(_:method:headers:body:)`` sets it).
    func removingContentType() -> HTTPFields {
        var fields = self
        fields[.contentType] = nil
        return fields
    }
}
