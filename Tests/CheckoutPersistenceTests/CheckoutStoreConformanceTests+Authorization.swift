import Checkout
import Foundation
import Testing

extension CheckoutStoreConformanceTests {
    @Test("authorization stores the order and authorizes the session together, once", arguments: CheckoutStoreKind.tested)
    func completeAuthorizationOnce(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let session = CheckoutFixtures.session("a-1")
            _ = try await store.insertSession(session)
            let order = CheckoutFixtures.order("o-a-1", sessionId: "a-1")
            #expect(try await store.completeAuthorization(
                order: order, session: CheckoutFixtures.authorized(session, orderId: order.id)))

            // A second authorization of the session stores nothing.
            let second = CheckoutFixtures.order("o-a-1-bis", sessionId: "a-1")
            #expect(try await store.completeAuthorization(
                order: second, session: CheckoutFixtures.authorized(session, orderId: second.id)) == false)
            #expect(try await store.order(id: second.id) == nil)
            #expect(try await store.session(id: "a-1")?.orderId == order.id)

            // No session, no order.
            let orphan = CheckoutFixtures.order("o-none", sessionId: "none")
            #expect(try await store.completeAuthorization(
                order: orphan, session: CheckoutFixtures.authorized(CheckoutFixtures.session("none"), orderId: orphan.id))
                == false)
            #expect(try await store.order(id: "o-none") == nil)
            #expect(try await store.session(id: "none") == nil)
        }
    }

    @Test("an authorization whose order cannot be stored leaves the session pending", arguments: CheckoutStoreKind.tested)
    func completeAuthorizationAtomic(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let first = CheckoutFixtures.session("b-1")
            let second = CheckoutFixtures.session("b-2")
            _ = try await store.insertSession(first)
            _ = try await store.insertSession(second)
            let order = CheckoutFixtures.order("o-b", sessionId: "b-1")
            #expect(try await store.completeAuthorization(
                order: order, session: CheckoutFixtures.authorized(first, orderId: order.id)))

            // The same order id for the other session: the order is refused, so the session must not change either.
            let clash = CheckoutFixtures.order("o-b", sessionId: "b-2")
            #expect(try await store.completeAuthorization(
                order: clash, session: CheckoutFixtures.authorized(second, orderId: clash.id)) == false)
            #expect(try await store.session(id: "b-2") == second)
            #expect(try await store.order(id: "o-b") == order)

            // The session is still pending: it can change and be authorized with a fresh order.
            #expect(try await store.updatePendingSession(second))
            let fresh = CheckoutFixtures.order("o-b-2", sessionId: "b-2")
            #expect(try await store.completeAuthorization(
                order: fresh, session: CheckoutFixtures.authorized(second, orderId: fresh.id)))
        }
    }

    @Test("of 20 concurrent authorizations of one session exactly one wins", arguments: CheckoutStoreKind.tested)
    func completeAuthorizationSingleWinner(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let session = CheckoutFixtures.session("w-1")
            _ = try await store.insertSession(session)
            let results = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let order = CheckoutFixtures.order("o-w-\(index)", sessionId: "w-1")
                        let won = try await store.completeAuthorization(
                            order: order, session: CheckoutFixtures.authorized(session, orderId: order.id))
                        return (order.id, won)
                    }
                }
                return try await group.reduce(into: [(String, Bool)]()) { $0.append($1) }
            }
            let winners = results.filter(\.1).map(\.0)
            try #require(winners.count == 1)
            #expect(try await store.session(id: "w-1")?.orderId == winners[0])
            for (orderId, won) in results {
                #expect((try await store.order(id: orderId) != nil) == won)
            }
        }
    }
}
