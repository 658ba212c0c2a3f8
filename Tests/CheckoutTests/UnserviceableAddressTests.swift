import Checkout
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraTestSupport

@Suite("An address the merchant does not serve has no shipping price")
struct UnserviceableAddressTests {
    static func lines(_ answer: [String: Any]) -> [[String: Any]] { answer["newLineItems"] as? [[String: Any]] ?? [] }

    /// No line other than a pending one may carry the shipping label, and a pending line has no amount.
    static func expectNoShippingPrice(_ items: [[String: Any]], total: [String: Any]?, _ comment: Comment) {
        let shipping = items.filter { $0["label"] as? String == "Shipping" }
        #expect(shipping.allSatisfy { $0["type"] as? String == "pending" && ($0["amount"] as? String ?? "").isEmpty },
                comment)
        #expect(!items.contains { $0["label"] as? String == "Standard" || $0["label"] as? String == "Express" }, comment)
        #expect(total?["type"] as? String == "pending", comment)
    }

    @Test("The update, GET session and authorize all follow the unserviceable address until a served one comes")
    func unserviceableUntilServed() async throws {
        let fixture = try CheckoutFixture()
        try await fixture.withClient { client in
            let id = try #require(try await client.createSession(["items": [["sku": "TSHIRT", "quantity": 1]]])["id"] as? String)
            let base = "/checkout/v1/sessions/\(id)"
            let (_, before) = try await client.get(base)
            let beforeItems = (before["paymentRequest"] as? [String: Any])?["lineItems"] as? [[String: Any]] ?? []
            #expect(beforeItems.contains { $0["label"] as? String == "Shipping" && $0["amount"] as? String == "5.00" })

            let (status, far) = try await client.post("\(base)/shipping-contact", ["shippingContact": [
                "locality": "New York", "postalCode": "10001", "countryCode": "US"]])
            #expect(status == .ok)
            #expect((far["errors"] as? [[String: Any]])?.first?["code"] as? String == "addressUnserviceable")
            Self.expectNoShippingPrice(Self.lines(far), total: far["newTotal"] as? [String: Any], "update: \(far)")

            let (_, read) = try await client.get(base)
            let request = try #require(read["paymentRequest"] as? [String: Any])
            Self.expectNoShippingPrice(request["lineItems"] as? [[String: Any]] ?? [],
                                       total: request["total"] as? [String: Any], "GET session: \(request)")
            #expect((request["shippingMethods"] as? [Any] ?? []).isEmpty, "\(request)")

            let (methodStatus, _) = try await client.post("\(base)/shipping-method", ["identifier": "standard"])
            #expect(methodStatus == .unprocessableContent)
            let (_, coupon) = try await client.post("\(base)/coupon-code", ["couponCode": "SAVE10"])
            Self.expectNoShippingPrice(Self.lines(coupon), total: coupon["newTotal"] as? [String: Any], "coupon: \(coupon)")

            // Even a payment whose own address is served is refused while the sheet's last address is not.
            let data = AuthorizationTests.applicationData(id)
            let payment = try fixture.payment(minorUnits: 2920, applicationData: data)
            let (refused, result) = try await client.post("\(base)/authorize", data: payment)
            #expect(refused == .unprocessableContent, "\(result)")
            #expect(result["code"] as? String == "addressUnserviceable", "\(result)")
            let error = try #require((result["errors"] as? [[String: Any]])?.first)
            #expect(error["code"] as? String == "addressUnserviceable")
            #expect(error["contactField"] as? String == "postalCode")
            #expect(fixture.processor.records.isEmpty)

            let (_, near) = try await client.post("\(base)/shipping-contact", ["shippingContact": [
                "locality": "Cupertino", "postalCode": "95014", "countryCode": "US"]])
            #expect(near["errors"] == nil)
            #expect(Self.lines(near).contains { $0["label"] as? String == "Shipping" && $0["amount"] as? String == "5.00" })
            let total = try #require(near["newTotal"] as? [String: Any])
            #expect(total["type"] as? String == "final")
            let text = try #require(total["amount"] as? String)
            let amount = try #require(Decimal(string: text))
            let paid = try fixture.payment(minorUnits: amount * 100, applicationData: data)
            let (ok, done) = try await client.post("\(base)/authorize", data: paid)
            #expect(ok == .ok, "\(done)")
        }
    }
}
