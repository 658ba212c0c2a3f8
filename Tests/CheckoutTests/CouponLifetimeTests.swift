import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TesseraTestSupport

@Suite("A coupon that expires while the sheet is open")
struct CouponLifetimeTests {
    @Test("A code valid when the sheet applied it is honoured for the session's life; the order keeps its discount line")
    func honouredAfterExpiry() async throws {
        let fixture = try CheckoutFixture { merchant in
            merchant.coupons.append(.init(code: "SOON", percentOff: 20, expires: Date().addingTimeInterval(60)))
        }
        try await fixture.withClient { client in
            let session = try await client.createSession(["items": [["sku": "TICKET-GA", "quantity": 1]]])
            let id = try #require(session["id"] as? String)
            // 45.00 - 9.00 = 36.00, tax 2.97: 38.97.
            let (_, applied) = try await client.post("/checkout/v1/sessions/\(id)/coupon-code", ["couponCode": "soon"])
            #expect((applied["newTotal"] as? [String: Any])?["amount"] as? String == "38.97")

            fixture.clock.advance(120)  // the coupon has expired now
            let (_, read) = try await client.get("/checkout/v1/sessions/\(id)")
            let request = try #require(read["paymentRequest"] as? [String: Any])
            #expect((request["total"] as? [String: Any])?["amount"] as? String == "38.97")
            // Sending the same code again (the sheet does on every change) keeps it.
            let (_, again) = try await client.post("/checkout/v1/sessions/\(id)/coupon-code", ["couponCode": "SOON"])
            #expect(again["errors"] == nil)
            #expect((again["newTotal"] as? [String: Any])?["amount"] as? String == "38.97")

            let payment = try fixture.payment(minorUnits: 3897, applicationData: Data("tessera-checkout-session:\(id)".utf8),
                                              shippingContact: CheckoutFixture.ticketContact)
            let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
            #expect(status == .ok, "\(result)")
            let (_, order) = try await client.get("/checkout/v1/orders/\(try #require(result["orderId"] as? String))")
            #expect(order["couponCode"] as? String == "SOON")
            let lines = try #require(order["lineItems"] as? [[String: Any]])
            #expect(lines.contains { $0["amount"] as? String == "-9.00" })
        }
    }

    @Test("A creation retried with its Idempotency-Key after its coupon expired is answered with the session, not refused")
    func retriedCreationAfterExpiry() async throws {
        let fixture = try CheckoutFixture { merchant in
            merchant.coupons.append(.init(code: "SOON", percentOff: 20, expires: Date().addingTimeInterval(60)))
        }
        try await fixture.withClient { client in
            let body: [String: Any] = ["items": [["sku": "TICKET-GA", "quantity": 1]], "couponCode": "SOON"]
            let first = try await client.createSession(body, key: "retry-after-midnight")
            fixture.clock.advance(120)  // the answer was lost; by the retry the coupon has expired
            let again = try await client.createSession(body, key: "retry-after-midnight")
            #expect(again["id"] as? String == first["id"] as? String && again["couponCode"] as? String == "SOON")
            // A new key with the same body is checked as new: the coupon has expired.
            do {
                _ = try await client.createSession(body, key: "a-new-key")
                Issue.record("a new creation with the expired coupon was accepted")
            } catch let error as CheckoutTestError {
                #expect("\(error)".contains("422") && "\(error)".contains("expired"), "\(error)")
            }
        }
    }

    @Test("An expired code entered on a new session is refused with couponCodeExpired and changes no price")
    func expiredIsTold() async throws {
        let fixture = try CheckoutFixture { merchant in
            merchant.coupons.append(.init(code: "SOON", percentOff: 20, expires: Date().addingTimeInterval(60)))
        }
        try await fixture.withClient { client in
            fixture.clock.advance(120)
            let session = try await client.createSession(["items": [["sku": "TICKET-GA", "quantity": 1]]])
            let id = try #require(session["id"] as? String)
            let (_, update) = try await client.post("/checkout/v1/sessions/\(id)/coupon-code", ["couponCode": "SOON"])
            #expect((update["errors"] as? [[String: Any]])?.first?["code"] as? String == "couponCodeExpired")
            #expect((update["newTotal"] as? [String: Any])?["amount"] as? String == "48.71")
        }
    }
}
