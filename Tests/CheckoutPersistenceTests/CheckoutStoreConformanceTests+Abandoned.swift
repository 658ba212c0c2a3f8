import Checkout
import Foundation
import Testing

extension CheckoutStoreConformanceTests {
    /// Abandoned carts are deleted; a paid session, one a payment holds and one changed since the cutoff are kept,
    /// and a deleted session's token stays refused.
    @Test("abandoned sessions are deleted oldest first; paid, held and recent ones are kept", arguments: CheckoutStoreKind.tested)
    func abandonedSessions(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let abandoned = CheckoutFixtures.session("ab-old")
            _ = try await store.insertSession(abandoned)
            // Paid: claimed, then completed with its order.
            let paid = CheckoutFixtures.session("ab-paid")
            _ = try await store.insertSession(paid)
            let paidClaim = CheckoutFixtures.claimed(paid, orderId: "o-ab-paid", transaction: "tx-ab-paid")
            #expect(try await store.claimAuthorization(paidClaim, transactionIdentifier: "tx-ab-paid",
                                                       at: CheckoutFixtures.now) == .claimed)
            #expect(try await store.completeAuthorization(order: CheckoutFixtures.order("o-ab-paid", sessionId: "ab-paid"),
                                                          session: CheckoutFixtures.authorized(paidClaim, orderId: "o-ab-paid")))
            // Held by a payment whose outcome is not known yet.
            let held = CheckoutFixtures.session("ab-held")
            _ = try await store.insertSession(held)
            #expect(try await store.claimAuthorization(
                CheckoutFixtures.claimed(held, orderId: "o-ab-held", transaction: "tx-ab-held"),
                transactionIdentifier: "tx-ab-held", at: CheckoutFixtures.now) == .claimed)
            // Declined, so pending again, with its token recorded.
            let declined = CheckoutFixtures.session("ab-declined")
            _ = try await store.insertSession(declined)
            let claim = CheckoutFixtures.claimed(declined, orderId: "o-ab-declined", transaction: "tx-ab-declined")
            #expect(try await store.claimAuthorization(claim, transactionIdentifier: "tx-ab-declined",
                                                       at: CheckoutFixtures.now) == .claimed)
            var released = claim
            released.state = .pending
            released.authorization = nil
            #expect(try await store.updateAuthorizingSession(released, attempt: "ab-declined-1"))

            try await Task.sleep(for: .milliseconds(20))
            let cutoff = Date()
            try await Task.sleep(for: .milliseconds(20))
            let recent = CheckoutFixtures.session("ab-recent")
            _ = try await store.insertSession(recent)

            #expect(try await store.deleteAbandonedSessions(lastChangedBefore: .distantPast, limit: 100) == 0)
            // Oldest first: the cart abandoned before the declined one was released.
            #expect(try await store.deleteAbandonedSessions(lastChangedBefore: cutoff, limit: 1) == 1)
            #expect(try await store.session(id: "ab-old") == nil)
            #expect(try await store.session(id: "ab-declined") != nil)
            #expect(try await store.deleteAbandonedSessions(lastChangedBefore: cutoff, limit: 100) == 1)
            #expect(try await store.session(id: "ab-declined") == nil)
            #expect(try await store.deleteAbandonedSessions(lastChangedBefore: cutoff, limit: 100) == 0)

            #expect(try await store.session(id: "ab-paid")?.state == .authorized)
            #expect(try await store.order(id: "o-ab-paid") != nil)
            #expect(try await store.session(id: "ab-held")?.state == .authorizing)
            #expect(try await store.session(id: "ab-recent")?.state == .pending)
            // The deleted session's token is still a replay; its idempotency key makes a new session.
            #expect(try await store.insertTransactionIdentifier("tx-ab-declined", sessionId: "other", at: Date()) == false)
            #expect(try await store.session(idempotencyKey: abandoned.idempotencyKey) == nil)
            guard case .created = try await store.insertSession(CheckoutFixtures.session("ab-again", key: abandoned.idempotencyKey))
            else {
                Issue.record("the abandoned session's key was not free")
                return
            }
        }
    }
}
