import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PaymentRequest
import Testing
import TesseraTestSupport

@Suite("Authorizing Apple Pay payments, orders and order passes")
struct AuthorizationTests {
    /// Creates a session with a ticket and a T-shirt, picks express, ships to 94107 and applies SAVE10.
    /// Subtotal 70.00, coupon -7.00, express 15.00, tax 63 × 0.0825 = 5.1975 → 5.20: total 83.20.
    static func preparedSession(_ client: LiveTestClient) async throws -> String {
        let session = try await client.createSession(["items": [["sku": "TICKET-GA", "quantity": 1], ["sku": "TSHIRT", "quantity": 1]]])
        let id = try #require(session["id"] as? String)
        _ = try await client.post("/checkout/v1/sessions/\(id)/shipping-method", ["identifier": "express"])
        _ = try await client.post("/checkout/v1/sessions/\(id)/shipping-contact",
                                  ["shippingContact": ["locality": "Cupertino", "postalCode": "95014", "countryCode": "US"]])
        let (_, coupon) = try await client.post("/checkout/v1/sessions/\(id)/coupon-code", ["couponCode": "SAVE10"])
        #expect((coupon["newTotal"] as? [String: Any])?["amount"] as? String == "83.20")
        return id
    }

    static func applicationData(_ id: String) -> Data { Data("tessera-checkout-session:\(id)".utf8) }

    @Test("A session is paid within its lifetime; after it, updates and payments are 410 sessionExpired and nothing reaches the processor")
    func sessionsExpire() async throws {
        let fixture = try CheckoutFixture(configuration: .init(sessionLifetime: 3_600))
        try await fixture.withClient { client in
            let id = try await Self.preparedSession(client)
            let late = try await Self.preparedSession(client)
            let (_, created) = try await client.get("/checkout/v1/sessions/\(id)")
            let expiresAt = try #require(created["expiresAt"] as? String)
            let expiry = try #require(ISO8601DateFormatter().date(from: expiresAt), "\(expiresAt)")
            #expect(abs(expiry.timeIntervalSince(fixture.clock.now.addingTimeInterval(3_600))) < 1, "\(expiresAt)")
            // A second before the end: paid.
            fixture.clock.advance(3_599)
            let payment = try fixture.payment(minorUnits: 8320, applicationData: Self.applicationData(id))
            let (paid, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(paid == .ok && result["status"] as? String == "STATUS_SUCCESS", "\(result)")

            // At the end: the other session takes no update and no payment, and says why.
            fixture.clock.advance(1)
            let (update, refusal) = try await client.post("/checkout/v1/sessions/\(late)/shipping-method", ["identifier": "standard"])
            #expect(update == .gone && (refusal["error"] as? [String: Any])?["code"] as? String == "sessionExpired", "\(refusal)")
            let latePayment = try fixture.payment(minorUnits: 8320, applicationData: Self.applicationData(late))
            let (status, answer) = try await client.post("/checkout/v1/sessions/\(late)/authorize", data: latePayment)
            #expect(status == .gone && answer["code"] as? String == "sessionExpired", "\(answer)")
            #expect(fixture.processor.records.count == 1, "only the session paid in time reached the processor")
            let (read, shown) = try await client.get("/checkout/v1/sessions/\(late)")
            #expect(read == .ok && shown["state"] as? String == "pending" && shown["expiresAt"] is String)
        }
    }

    @Test("End to end: authorize, read the order, download its pass; a replayed token is refused")
    func endToEnd() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let id = try await Self.preparedSession(client)
            let payment = try fixture.payment(minorUnits: 8320, applicationData: Self.applicationData(id))
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(result)")
            #expect(result["status"] as? String == "STATUS_SUCCESS")
            let orderId = try #require(result["orderId"] as? String)

            let (orderStatus, order) = try await client.get("/checkout/v1/orders/\(orderId)")
            #expect(orderStatus == .ok)
            #expect(order["total"] as? String == "83.20")
            #expect(order["status"] as? String == "authorized")
            #expect(order["shippingMethod"] as? String == "express")
            #expect(order["couponCode"] as? String == "SAVE10")
            #expect((order["payment"] as? [String: Any])?["displayName"] as? String == "Visa ••••1234 (Apple Pay)")
            #expect((order["shippingContact"] as? [String: Any])?["givenName"] as? String == "Ada")
            let orderText = String(decoding: try JSONSerialization.data(withJSONObject: order), as: UTF8.self)
            #expect(!orderText.contains("4761120010001234") && !orderText.contains("AOOXGFQ"))
            let storedOrder = try #require(await fixture.store.order(id: orderId))
            let storedText = String(decoding: try JSONEncoder().encode(storedOrder), as: UTF8.self)
            #expect(!storedText.contains("4761120010001234") && !storedText.contains("AOOXGFQ"))
            #expect(fixture.processor.records.map(\.amount) == [Decimal(string: "83.20")!])

            let passes = try #require(order["passes"] as? [[String: Any]])
            #expect(passes.count == 1)
            let download = try #require(passes.first?["downloadURL"] as? String)
            #expect(download.hasPrefix("https://passes.example.test/download/"))
            let path = String(download.dropFirst("https://passes.example.test".count))
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/vnd.apple.pkpass")
                #expect(response.body.readableBytes > 1000)
            }
            let (_, session) = try await client.get("/checkout/v1/sessions/\(id)")
            #expect(session["state"] as? String == "authorized")
            #expect(session["orderId"] as? String == orderId)

            // The same token again: the session is authorized now, and the transaction was seen.
            let (replayStatus, replay) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(replayStatus == .conflict)
            #expect(replay["status"] as? String == "STATUS_FAILURE")
            let (lateStatus, _) = try await client.post("/checkout/v1/sessions/\(id)/coupon-code", ["couponCode": ""])
            #expect(lateStatus == .conflict)
        }
    }

    @Test("A transaction identifier already used for another session is refused")
    func replayAcrossSessions() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let first = try await Self.preparedSession(client)
            let second = try await Self.preparedSession(client)
            let transaction = Data((0..<32).map { UInt8($0) })
            let one = try fixture.payment(minorUnits: 8320, applicationData: Self.applicationData(first), transactionId: transaction)
            let two = try fixture.payment(minorUnits: 8320, applicationData: Self.applicationData(second), transactionId: transaction)
            let (okStatus, _) = try await client.post("/checkout/v1/sessions/\(first)/authorize", data: one)
            #expect(okStatus == .ok)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(second)/authorize", data: two)
            #expect(status == .conflict)
            #expect(result["code"] as? String == "transactionReplayed")
            #expect(try #require(await fixture.store.session(id: second)).state == .pending)
        }
    }

    @Test("Tokens that do not match the session are refused and nothing is stored", arguments: [
        ("amountMismatch", 422), ("currencyMismatch", 422), ("applicationDataMismatch", 422),
        ("signatureInvalid", 400), ("signingTimeOutOfRange", 400), ("addressUnserviceable", 422),
        ("shippingContactInvalid", 422),
    ])
    func refused(code: String, status: Int) async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let id = try await Self.preparedSession(client)
            let data = Self.applicationData(id)
            var far = CheckoutFixture.fullContact
            far["postalCode"] = "10001"
            var nameless = CheckoutFixture.fullContact
            nameless["emailAddress"] = nil
            let payment: Data = switch code {
            case "amountMismatch": try fixture.payment(minorUnits: 8319, applicationData: data)
            case "currencyMismatch": try fixture.payment(minorUnits: 8320, currencyNumeric: "978", applicationData: data)
            case "applicationDataMismatch": try fixture.payment(minorUnits: 8320, applicationData: Data("other".utf8))
            case "signatureInvalid": try fixture.payment(minorUnits: 8320, applicationData: data, tamper: true)
            case "signingTimeOutOfRange":
                try fixture.payment(minorUnits: 8320, applicationData: data, signingTime: fixture.clock.now.addingTimeInterval(-600))
            case "addressUnserviceable": try fixture.payment(minorUnits: 8320, applicationData: data, shippingContact: far)
            default: try fixture.payment(minorUnits: 8320, applicationData: data, shippingContact: nameless)
            }
            let (answer, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(answer.code == status, "\(result)")
            #expect(result["status"] as? String == "STATUS_FAILURE")
            #expect(result["code"] as? String == code, "\(result)")
            #expect(!(result["errors"] as? [Any] ?? []).isEmpty)
            #expect(try #require(await fixture.store.session(id: id)).state == .pending)
            #expect(fixture.processor.records.isEmpty)
        }
    }

    @Test("An email address that is not one is refused before anything is charged (a Wallet order would refuse it)",
          arguments: ["not-an-email", "@example.test", "ada@", "ada @example.test"])
    func emailAddressChecked(address: String) async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let id = try await Self.preparedSession(client)
            var contact = CheckoutFixture.fullContact
            contact["emailAddress"] = address
            let payment = try fixture.payment(minorUnits: 8320, applicationData: Self.applicationData(id), shippingContact: contact)
            let (answer, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(answer.code == 422, "\(result)")
            #expect(result["code"] as? String == "shippingContactInvalid", "\(result)")
            let error = (result["errors"] as? [[String: Any]])?.first
            #expect(error?["code"] as? String == "shippingContactInvalid" && error?["contactField"] as? String == "emailAddress", "\(result)")
            #expect(try #require(await fixture.store.session(id: id)).state == .pending)
            #expect(fixture.processor.records.isEmpty)
        }
    }

    @Test("A contact field holding a control character is refused, naming it, before anything is charged",
          arguments: [("locality", "contactField=locality"), ("givenName", "contactField=name")])
    func controlCharactersRefused(key: String, expected: String) async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let id = try await Self.preparedSession(client)
            var contact = CheckoutFixture.fullContact
            contact[key] = "Spring\u{0}field"
            let payment = try fixture.payment(minorUnits: 8320, applicationData: Self.applicationData(id), shippingContact: contact)
            let (answer, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(answer.code == 422, "\(result)")
            let error = (result["errors"] as? [[String: Any]])?.first
            #expect("contactField=\(error?["contactField"] as? String ?? "-")" == expected, "\(result)")
            #expect(error?["code"] as? String == "shippingContactInvalid", "\(result)")
            #expect(try #require(await fixture.store.session(id: id)).state == .pending)
            #expect(fixture.processor.records.isEmpty)
        }
    }

    @Test("A shop that asks no postal address (collection at its counter) takes a payment whose contact has none")
    func noAddressAsked() async throws {
        let fixture = try CheckoutFixture { merchant in
            merchant.requiredShippingContactFields = [.name, .email]
            merchant.shippingRegions = []
        }
        try await fixture.withClient { client in
            let id = try await Self.preparedSession(client)
            let contact: [String: Any] = ["givenName": "Ada", "familyName": "Lovelace", "emailAddress": "ada@example.test"]
            let payment = try fixture.payment(minorUnits: 8320, applicationData: Self.applicationData(id), shippingContact: contact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok && result["status"] as? String == "STATUS_SUCCESS", "\(result)")
        }
    }

    @Test("A shop with no shipping methods still needs the address of goods that ship (they were sold without one)")
    func addressWithoutMethods() async throws {
        let fixture = try CheckoutFixture { merchant in merchant.shippingMethods = [] }
        try await fixture.withClient { client in
            let session = try await client.createSession(["items": [["sku": "TSHIRT", "quantity": 1]]])
            let id = try #require(session["id"] as? String)
            let request = try #require(session["paymentRequest"] as? [String: Any])
            #expect((request["requiredShippingContactFields"] as? [String])?.contains("postalAddress") == true, "\(request)")
            let nameOnly: [String: Any] = ["givenName": "Ada", "familyName": "Lovelace", "emailAddress": "ada@example.test"]
            let bare = try fixture.payment(minorUnits: 2706, applicationData: Self.applicationData(id), shippingContact: nameOnly)
            let (refused, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: bare)
            #expect(refused.code == 422, "\(result)")
            let error = (result["errors"] as? [[String: Any]])?.first
            #expect(error?["contactField"] as? String == "addressLines", "\(result)")
            #expect(fixture.processor.records.isEmpty)
            let full = try fixture.payment(minorUnits: 2706, applicationData: Self.applicationData(id))
            let (paid, receipt) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: full)
            #expect(paid == .ok && receipt["status"] as? String == "STATUS_SUCCESS", "\(receipt)")
        }
    }

    @Test("Without a pass issuer the order is kept with a note")
    func noIssuer() async throws {
        let fixture = try CheckoutFixture(withIssuer: false)
        try await fixture.withClient { client in
            let session = try await client.createSession(["items": [["sku": "TICKET-GA", "quantity": 2]]])
            let id = try #require(session["id"] as? String)
            // 90.00 + 7.425 → 7.43 tax
            let payment = try fixture.payment(minorUnits: 9743, applicationData: Self.applicationData(id), shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(result)")
            let (_, order) = try await client.get("/checkout/v1/orders/\(try #require(result["orderId"] as? String))")
            #expect((order["passes"] as? [Any])?.isEmpty == true)
            #expect((order["notes"] as? [String])?.first?.contains("no pass issuer") == true)
            let (missing, _) = try await client.get("/checkout/v1/orders/ord_missing")
            #expect(missing == .notFound)
        }
    }

    @Test("Development mode: test-authorize pays through the same path; it is absent otherwise")
    func developmentMode() async throws {
        let fixture = try CheckoutFixture(developmentMode: true)
        try await fixture.withClient { client in
            let id = try await Self.preparedSession(client)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/test-authorize",
                                                         ["shippingContact": CheckoutFixture.fullContact])
            #expect(status == .ok, "\(result)")
            let (_, order) = try await client.get("/checkout/v1/orders/\(try #require(result["orderId"] as? String))")
            #expect((order["payment"] as? [String: Any])?["displayName"] as? String == "Visa ••••1111 (Apple Pay)")
        }
        let production = try CheckoutFixture()
        try await production.withClient { client in
            let id = try await Self.preparedSession(client)
            let response = try await client.execute(uri: "/checkout/v1/sessions/\(id)/test-authorize", method: .post,
                                                    headers: JSONBody.json, body: try JSONBody.buffer([:]))
            #expect(response.status == .notFound)
        }
    }
}
