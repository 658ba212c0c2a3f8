import Checkout
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TesseraTestSupport

@Suite("Abandoned carts: anonymous creation limited per client, unpaid sessions deleted after their retention")
struct AbandonedSessionTests {
    static let cart = #"{"items":[{"sku":"TSHIRT","quantity":1}]}"#

    @Test("Anonymous callers create a limited number of sessions (429 with Retry-After, nothing stored); the merchant's key is not limited")
    func anonymousCreationLimited() async throws {
        var configuration = CheckoutService.Configuration()
        configuration.anonymousSessionsPerMinute = 3
        let fixture = try CheckoutFixture(configuration: configuration)
        try await fixture.withClient { client in
            for index in 0..<3 {
                let created = try await client.execute(
                    uri: "/checkout/v1/sessions", method: .post,
                    headers: JSONBody.headers(idempotencyKey: "anon-\(index)", anonymous: true),
                    body: ByteBuffer(string: Self.cart))
                #expect(created.status == .created, "\(String(buffer: created.body))")
            }
            let refused = try await client.execute(
                uri: "/checkout/v1/sessions", method: .post,
                headers: JSONBody.headers(idempotencyKey: "anon-3", anonymous: true), body: ByteBuffer(string: Self.cart))
            #expect(refused.status == .tooManyRequests)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1, "\(refused.headers)")
            let error = try #require(try JSONBody.object(refused)["error"] as? [String: Any])
            #expect(error["code"] as? String == "rateLimited", "\(error)")
            #expect(try await fixture.store.session(idempotencyKey: "anon-3") == nil)
            // A retry of a creation that was stored is answered as before (nothing new is stored).
            let retried = try await client.execute(
                uri: "/checkout/v1/sessions", method: .post,
                headers: JSONBody.headers(idempotencyKey: "anon-0", anonymous: true), body: ByteBuffer(string: Self.cart))
            #expect(retried.status == .created && retried.headers[HTTPField.Name("Idempotent-Replayed")!] == "true",
                    "\(retried.status) \(String(buffer: retried.body))")
            // The merchant's server goes on creating sessions.
            for index in 0..<5 {
                _ = try await client.createSession(["items": [["sku": "TSHIRT", "quantity": 1]]], key: "merchant-\(index)")
            }
        }
    }

    @Test("An unpaid session is deleted once it has been expired for the retention; a paid one and its order stay")
    func unpaidSessionsDeleted() async throws {
        var configuration = CheckoutService.Configuration(sessionLifetime: 3_600)
        configuration.abandonedSessionRetention = 7_200
        let fixture = try CheckoutFixture(configuration: configuration)
        try await fixture.withClient { client in
            let paid = try await AuthorizationTests.preparedSession(client)
            let abandoned = try await AuthorizationTests.preparedSession(client)
            let payment = try fixture.payment(minorUnits: 8320, applicationData: AuthorizationTests.applicationData(paid))
            let (status, answer) = try await client.post("/checkout/v1/sessions/\(paid)/authorize", data: payment)
            #expect(status == .ok, "\(answer)")

            // A minute before the retention ends: kept.
            fixture.clock.advance(3_600 + 7_200 - 60)
            #expect(await fixture.service.deleteAbandonedSessions() == 0)
            let (kept, _) = try await client.get("/checkout/v1/sessions/\(abandoned)")
            #expect(kept == .ok)
            // A minute after: gone; the paid session and its order are still there.
            fixture.clock.advance(120)
            #expect(await fixture.service.deleteAbandonedSessions() == 1)
            let (gone, _) = try await client.get("/checkout/v1/sessions/\(abandoned)")
            #expect(gone == .notFound)
            let (read, session) = try await client.get("/checkout/v1/sessions/\(paid)")
            #expect(read == .ok && session["state"] as? String == "authorized", "\(session)")
            let orderId = try #require(session["orderId"] as? String)
            let (order, _) = try await client.get("/checkout/v1/orders/\(orderId)")
            #expect(order == .ok)
        }
    }
}
