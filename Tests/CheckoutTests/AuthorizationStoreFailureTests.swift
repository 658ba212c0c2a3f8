import Checkout
import Foundation
import HTTPTypes
import Testing
import TesseraTestSupport

/// The store failing around a processor call (a database failing over, a commit whose answer was lost): the buyer
/// is told what happened to the money, never a server error, and recovery finishes the payment with the same key.
@Suite("Authorization: the store failing around the processor call")
struct AuthorizationStoreFailureTests {
    /// A new session for one ticket, paid with Apple Pay: its id and the authorization's answer.
    static func payForTicket(_ fixture: CheckoutFixture, _ client: LiveTestClient) async throws
        -> (id: String, status: HTTPResponse.Status, result: [String: Any])
    {
        let id = try await AuthorizationStateTests.ticketSession(client)
        let payment = try fixture.payment(minorUnits: 4871, applicationData: AuthorizationStateTests.applicationData(id),
                                          shippingContact: CheckoutFixture.ticketContact)
        let (status, result) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: payment)
        return (id, status, result)
    }

    @Test("approved, and the order not written: 502 processorUnknown, then recovery records the one order")
    func approvedOrderNotWritten() async throws {
        let processor = CountingProcessor()
        let fixture = try CheckoutFixture(
            processor: processor, configuration: .init(authorizationLease: 0),
            wrapStore: CheckoutStoreWrapper {
                FailingCheckoutStore($0, failing: [.completeAuthorization: 1, .updateAuthorizingSession: 1])
            })
        try await fixture.withClient { client in
            let (id, status, result) = try await Self.payForTicket(fixture, client)
            #expect(status.code == 502, "\(result)")
            #expect(result["code"] as? String == "processorUnknown")
            // Neither the order nor the processorUnknown mark was written: the session is still held.
            #expect(try #require(await fixture.store.session(id: id)).state == .authorizing)

            fixture.clock.advance(1)
            #expect(await fixture.service.recoverAuthorizations() == 1)
            let stored = try #require(await fixture.store.session(id: id))
            #expect(stored.state == .authorized)
            #expect(processor.calls.map(\.idempotencyKey) == ["\(id)-1", "\(id)-1"])
            #expect(Set(processor.calls.map(\.orderId)) == [try #require(stored.orderId)])
            let (_, order) = try await client.get("/checkout/v1/orders/\(try #require(stored.orderId))")
            #expect((order["passes"] as? [Any])?.count == 1)
        }
    }

    @Test("declined, and the session not released: 402 declined, then recovery releases it for another payment")
    func declinedNotReleased() async throws {
        let processor = CountingProcessor(declineFirst: 2)
        let fixture = try CheckoutFixture(
            processor: processor, configuration: .init(authorizationLease: 0),
            wrapStore: CheckoutStoreWrapper { FailingCheckoutStore($0, failing: [.updateAuthorizingSession: 1]) })
        try await fixture.withClient { client in
            let (id, status, result) = try await Self.payForTicket(fixture, client)
            #expect(status.code == 402, "\(result)")
            #expect(result["code"] as? String == "declined")

            fixture.clock.advance(1)
            #expect(await fixture.service.recoverAuthorizations() == 0)  // declined again, with the same key
            #expect(try #require(await fixture.store.session(id: id)).state == .pending)
            let again = try fixture.payment(minorUnits: 4871, applicationData: AuthorizationStateTests.applicationData(id),
                                            shippingContact: CheckoutFixture.ticketContact)
            let (paid, _) = try await client.post("/checkout/v1/sessions/\(id)/authorize", data: again)
            #expect(paid == .ok)
            #expect(processor.calls.map(\.idempotencyKey) == ["\(id)-1", "\(id)-1", "\(id)-2"])
        }
    }
}
