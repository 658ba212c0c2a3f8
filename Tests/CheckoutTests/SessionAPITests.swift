import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TesseraTestSupport

@Suite("Checkout sessions and sheet updates over HTTP")
struct SessionAPITests {
    nonisolated(unsafe) static let cart: [String: Any] = ["items": [["sku": "TSHIRT", "quantity": 2], ["name": "Poster", "quantity": 1, "unitPrice": "12.50"]]]

    @Test("Creating a session returns the payment request; GET reads it back")
    func create() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let session = try await client.createSession(Self.cart)
            let id = try #require(session["id"] as? String)
            let request = try #require(session["paymentRequest"] as? [String: Any])
            #expect((request["total"] as? [String: Any])?["amount"] as? String == "72.66")
            #expect((request["total"] as? [String: Any])?["label"] as? String == "Tessera Arena (via Tessera Market)")
            #expect(request["applicationData"] as? String == Data("tessera-checkout-session:\(id)".utf8).base64EncodedString())
            #expect((session["sheetURL"] as? String)?.hasPrefix("/checkout/sheet/\(id)?clientSecret=") == true)
            let (status, read) = try await client.get("/checkout/v1/sessions/\(id)")
            #expect(status == .ok)
            #expect(read["state"] as? String == "pending")
            #expect((read["items"] as? [[String: Any]])?.first?["unitPrice"] as? String == "25.00")
            let (missing, _) = try await client.get("/checkout/v1/sessions/cs_nope")
            #expect(missing == .notFound)
        }
    }

    @Test("Idempotency-Key: same body → same session, different body → 409, none → 400")
    func idempotency() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let first = try await client.createSession(Self.cart, key: "order-42")
            let again = try await client.execute(uri: "/checkout/v1/sessions", method: .post,
                                                 headers: JSONBody.headers(idempotencyKey: "order-42"),
                                                 body: try JSONBody.buffer(Self.cart))
            #expect(again.status == .created)
            #expect(try JSONBody.object(again)["id"] as? String == first["id"] as? String)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let other = try await client.execute(uri: "/checkout/v1/sessions", method: .post,
                                                 headers: JSONBody.headers(idempotencyKey: "order-42"),
                                                 body: try JSONBody.buffer(["items": [["sku": "TSHIRT", "quantity": 3]]]))
            #expect(other.status == .conflict)
            let error = try JSONBody.object(other)["error"] as? [String: Any]
            #expect(error?["code"] as? String == "idempotencyConflict")
            let none = try await client.execute(uri: "/checkout/v1/sessions", method: .post, headers: JSONBody.json,
                                                body: try JSONBody.buffer(Self.cart))
            #expect(none.status == .badRequest)
            #expect((try JSONBody.object(none)["error"] as? [String: Any])?["field"] as? String == "Idempotency-Key")
        }
    }

    @Test("Bad carts are refused with the field named", arguments: [
        (#"{"items":[{"sku":"NOPE","quantity":1}]}"#, "items[0].sku"),
        (#"{"items":[{"sku":"TSHIRT","quantity":0}]}"#, "items[0].quantity"),
        (#"{"items":[{"name":"Mug","quantity":1,"unitPrice":"4.999"}]}"#, "items[0].unitPrice"),
        (#"{"items":[{"name":"Mug","quantity":1,"unitPrice":5}]}"#, "items[0].unitPrice"),
        (#"{"items":[{"quantity":1,"unitPrice":"5.00"}]}"#, "items[0].name"),
        (#"{"items":[{"sku":"TSHIRT","quantity":1,"unitPrice":"1.00"}]}"#, "items[0].unitPrice"),
        (#"{"items":[]}"#, "items"),
        (#"{}"#, "items"),
        (#"{"items":[{"sku":"TSHIRT","quantity":1}],"couponCode":"OLD"}"#, "couponCode"),
    ])
    func badCarts(body: String, field: String) async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let response = try await client.execute(uri: "/checkout/v1/sessions", method: .post,
                                                    headers: JSONBody.headers(idempotencyKey: UUID().uuidString),
                                                    body: ByteBuffer(string: body))
            #expect(response.status == .badRequest || response.status == .unprocessableContent)
            #expect((try JSONBody.object(response)["error"] as? [String: Any])?["field"] as? String == field)
        }
        #expect(await fixture.store.session(id: "x") == nil)
    }

    @Test("A body that does not decode is refused with the field and the fault named", arguments: [
        (#"{"items":[{"sku":"TSHIRT"}]}"#, "items[0].quantity", "is required"),
        (#"{"items":[{"sku":"TSHIRT","quantity":"1"}]}"#, "items[0].quantity", "must be a number"),
        (#"{"items":[{"sku":"TSHIRT","quantity":null}]}"#, "items[0].quantity", "must be a number, found null"),
        (#"{"items":{"sku":"TSHIRT"}}"#, "items", "must be an array"),
        (#"{"items":"#, "body", "is not valid JSON (line 1, column 10: Unexpected end of file during JSON parse.)"),
    ])
    func undecodableBodies(body: String, field: String, reason: String) async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let response = try await client.execute(uri: "/checkout/v1/sessions", method: .post,
                                                    headers: JSONBody.headers(idempotencyKey: UUID().uuidString),
                                                    body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let error = try JSONBody.object(response)["error"] as? [String: Any]
            #expect(error?["field"] as? String == field)
            #expect(error?["message"] as? String == "\(field): \(reason)")
            #expect(error?["code"] as? String == "invalidRequest")
        }
    }

    @Test("An already-priced summary is accepted")
    func pricedSummary() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let session = try await client.createSession(["summary": ["subtotal": "40.00", "tax": "3.20"]])
            let request = try #require(session["paymentRequest"] as? [String: Any])
            #expect((request["total"] as? [String: Any])?["amount"] as? String == "48.20")
        }
    }

    @Test("Shipping method, contact, coupon and payment method answer Apple Pay update objects")
    func updates() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let id = try #require(try await client.createSession(Self.cart)["id"] as? String)
            let base = "/checkout/v1/sessions/\(id)"

            let (methodStatus, method) = try await client.post("\(base)/shipping-method", ["shippingMethod": ["identifier": "express"]])
            #expect(methodStatus == .ok)
            #expect((method["newTotal"] as? [String: Any])?["amount"] as? String == "82.66")
            #expect((method["newLineItems"] as? [[String: Any]])?.map { $0["amount"] as? String } == ["62.50", "15.00", "5.16"])
            let (unknown, unknownBody) = try await client.post("\(base)/shipping-method", ["identifier": "teleport"])
            #expect(unknown == .unprocessableContent)
            #expect((unknownBody["error"] as? [String: Any])?["field"] as? String == "identifier")

            let (_, served) = try await client.post("\(base)/shipping-contact", ["shippingContact": [
                "locality": "San Francisco", "postalCode": "94107", "countryCode": "US", "givenName": "Ada",
                "addressLines": ["1 Secret St"], "emailAddress": "ada@example.test"]])
            #expect(served["errors"] == nil)
            #expect((served["newShippingMethods"] as? [[String: Any]])?.first?["identifier"] as? String == "express")
            let stored = try #require(await fixture.store.session(id: id))
            #expect(stored.shippingContact?.postalCode == "94107")
            let storedJSON = String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
            #expect(!storedJSON.contains("Ada") && !storedJSON.contains("Secret St") && !storedJSON.contains("example.test"))

            let (_, far) = try await client.post("\(base)/shipping-contact", ["shippingContact": [
                "locality": "New York", "postalCode": "10001", "countryCode": "US"]])
            let farError = try #require((far["errors"] as? [[String: Any]])?.first)
            #expect(farError["code"] as? String == "addressUnserviceable")
            #expect(farError["contactField"] as? String == "postalCode")
            #expect((far["newShippingMethods"] as? [Any])?.isEmpty == true)

            let (_, noCountry) = try await client.post("\(base)/shipping-contact", ["locality": "Nowhere"])
            let invalid = try #require((noCountry["errors"] as? [[String: Any]])?.first)
            #expect(invalid["code"] as? String == "shippingContactInvalid")
            #expect(invalid["contactField"] as? String == "countryCode")

            let (_, coupon) = try await client.post("\(base)/coupon-code", ["couponCode": "save10"])
            #expect(coupon["errors"] == nil)
            #expect((coupon["newLineItems"] as? [[String: Any]])?[1]["amount"] as? String == "-6.25")
            let (_, expired) = try await client.post("\(base)/coupon-code", ["couponCode": "OLD"])
            #expect((expired["errors"] as? [[String: Any]])?.first?["code"] as? String == "couponCodeExpired")
            let (_, bogus) = try await client.post("\(base)/coupon-code", ["couponCode": "FREE"])
            #expect((bogus["errors"] as? [[String: Any]])?.first?["code"] as? String == "couponCodeInvalid")
            #expect(try #require(await fixture.store.session(id: id)).couponCode == nil)

            let (_, card) = try await client.post("\(base)/payment-method", ["paymentMethod": ["network": "Visa", "type": "debit"]])
            #expect(card["errors"] == nil)
            #expect(card["newTotal"] != nil)
            let (_, jcb) = try await client.post("\(base)/payment-method", ["paymentMethod": ["network": "JCB"]])
            #expect((jcb["errors"] as? [[String: Any]])?.count == 1)
        }
    }
}
