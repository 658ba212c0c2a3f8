import Checkout
import Foundation
import HTTPTypes
import PaymentRequest
import Testing
import TesseraTestSupport

@Suite("Changes of one session made from reads taken before another change was saved")
struct ConcurrentSessionChangeTests {
    static func decode<Value: Decodable>(_ type: Value.Type, _ object: [String: Any]) throws -> Value {
        try JSONDecoder().decode(type, from: try JSONSerialization.data(withJSONObject: object))
    }

    /// A session with a T-shirt shipped to Cupertino: its identifier and the path of its routes.
    static func shippingSession(_ client: LiveTestClient) async throws -> (id: String, base: String) {
        let id = try #require(try await client.createSession(["items": [["sku": "TSHIRT", "quantity": 1]]])["id"] as? String)
        let base = "/checkout/v1/sessions/\(id)"
        _ = try await client.post("\(base)/shipping-contact", ["shippingContact": [
            "locality": "Cupertino", "postalCode": "95014", "countryCode": "US"]])
        return (id, base)
    }

    @Test("A sheet update made from a session read before the coupon was applied keeps the coupon")
    func updateKeepsAnEarlierUpdate() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let (id, base) = try await Self.shippingSession(client)
            // The shipping-method request read the session, then the coupon's request saved first.
            let read = try #require(await fixture.store.session(id: id))
            let (status, _) = try await client.post("\(base)/coupon-code", ["couponCode": "SAVE10"])
            #expect(status == .ok)
            let answer = try await fixture.service.selectShippingMethod(
                try Self.decode(ShippingMethodRequest.self, ["identifier": "express"]), in: read)

            let stored = try #require(await fixture.store.session(id: id))
            #expect(stored.couponCode == "SAVE10")
            #expect(stored.selectedShippingMethod == "express")
            // The sheet is told the total of both changes, the total the session now has.
            let (_, session) = try await client.get(base)
            let total = (session["paymentRequest"] as? [String: Any])?["total"] as? [String: Any]
            #expect(answer.newTotal.amount == total?["amount"] as? String)
            #expect((answer.newLineItems ?? []).contains { $0.amount.hasPrefix("-") })
        }
    }

    @Test("A payment made from a session read before the address changed stores the new address, not the old one")
    func claimKeepsAnEarlierUpdate() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let (id, base) = try await Self.shippingSession(client)
            _ = try await client.post("\(base)/shipping-method", ["identifier": "standard"])
            let read = try #require(await fixture.store.session(id: id))
            // Another address with the same prices, saved after the payment read the session.
            _ = try await client.post("\(base)/shipping-contact", ["shippingContact": [
                "locality": "San Francisco", "postalCode": "94103", "countryCode": "US"]])
            let (_, session) = try await client.get(base)
            let amount = try #require(((session["paymentRequest"] as? [String: Any])?["total"] as? [String: Any])?["amount"]
                as? String)
            #expect(amount == "\(read.total)")

            let payment = try fixture.payment(minorUnits: try #require(Decimal(string: amount)) * 100,
                                              applicationData: read.applicationData,
                                              shippingContact: CheckoutFixture.fullContact)
            let result = try await fixture.service.authorizePayment(payment, session: read)
            #expect(result.orderId != nil)
            let stored = try #require(await fixture.store.session(id: id))
            #expect(stored.state == .authorized)
            #expect(stored.shippingContact?.locality == "San Francisco")
            #expect(fixture.processor.records.map(\.amount) == [read.total])
        }
    }
}
