import Checkout
import Foundation
import Testing

extension CheckoutStoreConformanceTests {
    /// The processor's answer to an attempt can arrive after recovery settled that attempt and the buyer paid again:
    /// it changes nothing of the later attempt's session.
    @Test("a late answer to an earlier attempt neither releases nor completes the session a later attempt holds",
          arguments: CheckoutStoreKind.tested)
    func lateAnswerToAnEarlierAttempt(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let session = CheckoutFixtures.session("l-1")
            _ = try await store.insertSession(session)
            // Attempt 1 claims the session; recovery takes it over and the processor declines it: pending again.
            let first = CheckoutFixtures.claimed(session, orderId: "o-l-1", transaction: "tx-l-1")
            #expect(try await store.claimAuthorization(first, transactionIdentifier: "tx-l-1", at: CheckoutFixtures.now)
                    == .claimed)
            var declined = first
            declined.state = .pending
            declined.authorization = nil
            #expect(try await store.updateAuthorizingSession(declined, attempt: "l-1-1"))
            // The buyer pays again: attempt 2 holds the session.
            var second = CheckoutFixtures.claimed(try #require(try await store.session(id: "l-1")), orderId: "o-l-2",
                                                  transaction: "tx-l-2")
            second.authorizationAttempts = 2
            second.authorization?.idempotencyKey = "l-1-2"
            #expect(try await store.claimAuthorization(second, transactionIdentifier: "tx-l-2", at: CheckoutFixtures.now)
                    == .claimed)

            // Attempt 1's original call now answers: declined, unknown, or approved. None touches attempt 2's session.
            #expect(try await store.updateAuthorizingSession(declined, attempt: "l-1-1") == false)
            var unknown = first
            unknown.state = .processorUnknown
            #expect(try await store.updateAuthorizingSession(unknown, attempt: "l-1-1") == false)
            let lateOrder = CheckoutFixtures.order("o-l-1", sessionId: "l-1")
            #expect(try await store.completeAuthorization(
                order: lateOrder, session: CheckoutFixtures.authorized(session, orderId: lateOrder.id)) == false)
            #expect(try await store.order(id: "o-l-1") == nil)
            let held = try #require(try await store.session(id: "l-1"))
            #expect(held.state == .authorizing && held.authorization?.idempotencyKey == "l-1-2")

            // Attempt 2's own answer is recorded.
            let order = CheckoutFixtures.order("o-l-2", sessionId: "l-1")
            #expect(try await store.completeAuthorization(
                order: order, session: CheckoutFixtures.authorized(session, orderId: order.id)))
            #expect(try await store.session(id: "l-1")?.orderId == "o-l-2")
        }
    }
}
