import Checkout
import Foundation
import Testing

extension CheckoutStoreConformanceTests {
    @Test("authorization stores the order and authorizes the claimed session together, once",
          arguments: CheckoutStoreKind.tested)
    func completeAuthorizationOnce(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let session = CheckoutFixtures.session("a-1")
            _ = try await store.insertSession(session)
            let order = CheckoutFixtures.order("o-a-1", sessionId: "a-1")
            // A pending session that no authorization claimed cannot be completed.
            #expect(try await store.completeAuthorization(
                order: order, session: CheckoutFixtures.authorized(session, orderId: order.id)) == false)
            #expect(try await store.order(id: order.id) == nil)
            #expect(try await store.claimAuthorization(CheckoutFixtures.claimed(session, orderId: order.id),
                                                       transactionIdentifier: "tx-a-1", at: CheckoutFixtures.now)
                    == .claimed)
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

    @Test("a claim made from the session before another attempt was declined is refused as still pending; made again, it is claimed",
          arguments: CheckoutStoreKind.tested)
    func claimFromAStaleAttemptCount(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let read = CheckoutFixtures.session("s-1")
            _ = try await store.insertSession(read)
            // Payment A claims attempt 1, is declined: the session is pending again with one attempt made.
            let first = CheckoutFixtures.claimed(read, orderId: "o-s-1", transaction: "tx-s-1")
            #expect(try await store.claimAuthorization(first, transactionIdentifier: "tx-s-1", at: CheckoutFixtures.now) == .claimed)
            var declined = first
            declined.state = .pending
            declined.authorization = nil
            #expect(try await store.updateAuthorizingSession(declined, attempt: "s-1-1"))
            // Payment B read the session before A's claim: its claim would be attempt 1 again, the same key.
            let stale = CheckoutFixtures.claimed(read, orderId: "o-s-2", transaction: "tx-s-2")
            #expect(try await store.claimAuthorization(stale, transactionIdentifier: "tx-s-2", at: CheckoutFixtures.now)
                    == .notPending(.pending))
            // From the session as it is: attempt 2.
            var current = try #require(try await store.session(id: "s-1"))
            #expect(current.authorizationAttempts == 1)
            current = CheckoutFixtures.claimed(current, orderId: "o-s-2", transaction: "tx-s-2")
            current.authorizationAttempts = 2
            #expect(try await store.claimAuthorization(current, transactionIdentifier: "tx-s-2", at: CheckoutFixtures.now) == .claimed)
        }
    }

    @Test("a claim made from the session before a sheet update was saved is refused as still pending, the update kept",
          arguments: CheckoutStoreKind.tested)
    func claimFromAStaleRevision(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let read = CheckoutFixtures.session("r-1")
            _ = try await store.insertSession(read)
            // The buyer changes the shipping address (same total) after the payment read the session.
            var updated = read.nextRevision()
            updated.shippingContact?.locality = "Lyon"
            #expect(try await store.updatePendingSession(updated))
            let stale = CheckoutFixtures.claimed(read, orderId: "o-r-1", transaction: "tx-r-1")
            #expect(try await store.claimAuthorization(stale, transactionIdentifier: "tx-r-1", at: CheckoutFixtures.now)
                    == .notPending(.pending))
            #expect(try await store.session(id: "r-1") == updated)
            // Nothing was recorded: the same payment, claimed from the session as it is, goes through.
            let current = try #require(try await store.session(id: "r-1"))
            let claim = CheckoutFixtures.claimed(current, orderId: "o-r-1", transaction: "tx-r-1")
            #expect(try await store.claimAuthorization(claim, transactionIdentifier: "tx-r-1", at: CheckoutFixtures.now)
                    == .claimed)
            #expect(try await store.session(id: "r-1")?.shippingContact?.locality == "Lyon")
        }
    }

    @Test("an authorization whose order cannot be stored leaves the session held", arguments: CheckoutStoreKind.tested)
    func completeAuthorizationAtomic(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let first = CheckoutFixtures.session("b-1")
            let second = CheckoutFixtures.session("b-2")
            _ = try await store.insertSession(first)
            _ = try await store.insertSession(second)
            let claimedSecond = CheckoutFixtures.claimed(second, orderId: "o-b-2", transaction: "tx-b-2")
            #expect(try await store.claimAuthorization(CheckoutFixtures.claimed(first, orderId: "o-b", transaction: "tx-b-1"),
                                                       transactionIdentifier: "tx-b-1", at: CheckoutFixtures.now) == .claimed)
            #expect(try await store.claimAuthorization(claimedSecond, transactionIdentifier: "tx-b-2",
                                                       at: CheckoutFixtures.now) == .claimed)
            let order = CheckoutFixtures.order("o-b", sessionId: "b-1")
            #expect(try await store.completeAuthorization(
                order: order, session: CheckoutFixtures.authorized(first, orderId: order.id), passesOwed: true))

            // The same order id for the other session: the order is refused, so the session must not change either.
            let clash = CheckoutFixtures.order("o-b", sessionId: "b-2")
            #expect(try await store.completeAuthorization(
                order: clash, session: CheckoutFixtures.authorized(second, orderId: clash.id), passesOwed: true) == false)
            #expect(try await store.session(id: "b-2") == claimedSecond)
            #expect(try await store.order(id: "o-b") == order)
            #expect(try await store.ordersOwingPasses(limit: 10).map(\.id) == ["o-b"])

            // The session is still held: it completes with its own order.
            let fresh = CheckoutFixtures.order("o-b-2", sessionId: "b-2")
            #expect(try await store.completeAuthorization(
                order: fresh, session: CheckoutFixtures.authorized(second, orderId: fresh.id)))
            #expect(try await store.ordersOwingPasses(limit: 10).map(\.id) == ["o-b"])
        }
    }

    @Test("of 20 concurrent claims of one session exactly one wins and only its transaction is recorded",
          arguments: CheckoutStoreKind.tested)
    func claimSingleWinner(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let session = CheckoutFixtures.session("w-1")
            _ = try await store.insertSession(session)
            let results = try await withThrowingTaskGroup(of: (Int, AuthorizationClaim).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let claim = try await store.claimAuthorization(
                            CheckoutFixtures.claimed(session, orderId: "o-w-\(index)", transaction: "tx-w-\(index)"),
                            transactionIdentifier: "tx-w-\(index)", at: CheckoutFixtures.now)
                        return (index, claim)
                    }
                }
                return try await group.reduce(into: [(Int, AuthorizationClaim)]()) { $0.append($1) }
            }
            let winners = results.filter { $0.1 == .claimed }.map(\.0)
            try #require(winners.count == 1)
            #expect(results.filter { $0.1 == .notPending(.authorizing) }.count == 19)
            #expect(try await store.session(id: "w-1")?.authorization?.orderId == "o-w-\(winners[0])")
            for (index, claim) in results {
                // A losing claim recorded nothing: its transaction identifier is still new.
                let fresh = try await store.insertTransactionIdentifier("tx-w-\(index)", sessionId: "w-1", at: .now)
                #expect(fresh == (claim != .claimed))
            }
        }
    }

    @Test("a replayed transaction identifier rolls the claim back; the session stays pending",
          arguments: CheckoutStoreKind.tested)
    func claimReplay(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let one = CheckoutFixtures.session("y-1")
            let two = CheckoutFixtures.session("y-2")
            _ = try await store.insertSession(one)
            _ = try await store.insertSession(two)
            #expect(try await store.claimAuthorization(CheckoutFixtures.claimed(one, orderId: "o-y-1"),
                                                       transactionIdentifier: "same", at: CheckoutFixtures.now) == .claimed)
            #expect(try await store.claimAuthorization(CheckoutFixtures.claimed(two, orderId: "o-y-2"),
                                                       transactionIdentifier: "same", at: CheckoutFixtures.now)
                    == .transactionReplayed)
            #expect(try await store.session(id: "y-2") == two)
            #expect(try await store.claimAuthorization(CheckoutFixtures.claimed(one, orderId: "o-y-3"),
                                                       transactionIdentifier: "other", at: CheckoutFixtures.now)
                    == .notPending(.authorizing))
            #expect(try await store.claimAuthorization(CheckoutFixtures.claimed(CheckoutFixtures.session("y-none"),
                                                                                orderId: "o"),
                                                       transactionIdentifier: "x", at: CheckoutFixtures.now)
                    == .notPending(nil))
        }
    }

    @Test("held authorizations: processor-unknown, release on decline, leases, and the pass queue",
          arguments: CheckoutStoreKind.tested)
    func heldAuthorizations(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let session = CheckoutFixtures.session("h-1")
            _ = try await store.insertSession(session)
            #expect(try await store.updateAuthorizingSession(session, attempt: "h-1-1") == false)
            let claimed = CheckoutFixtures.claimed(session, orderId: "o-h-1")
            let start = Date.now.addingTimeInterval(-600)
            #expect(try await store.claimAuthorization(claimed, transactionIdentifier: "tx-h-1", at: start) == .claimed)
            var unknown = claimed
            unknown.state = .processorUnknown
            #expect(try await store.updateAuthorizingSession(unknown, attempt: "h-1-1"))
            #expect(try await store.session(id: "h-1")?.state == .processorUnknown)

            // Stale leases are taken once; the renewed lease is not stale.
            let leased = try await store.leaseStaleAuthorizations(olderThan: .now.addingTimeInterval(3600), now: .now,
                                                                  limit: 10)
            #expect(leased.map(\.id) == ["h-1"])
            #expect(leased.first?.authorization == claimed.authorization)
            #expect(try await store.leaseStaleAuthorizations(olderThan: .now.addingTimeInterval(-60), now: .now,
                                                             limit: 10).isEmpty)

            // A decline returns it to pending; then it is no longer held.
            var released = unknown
            released.state = .pending
            released.authorization = nil
            #expect(try await store.updateAuthorizingSession(released, attempt: "h-1-2") == false, "another attempt's key")
            #expect(try await store.updateAuthorizingSession(released, attempt: "h-1-1"))
            #expect(try await store.updateAuthorizingSession(released, attempt: "h-1-1") == false)
            let reopened = released.nextRevision()
            #expect(try await store.updatePendingSession(reopened))

            // Claimed again (its second attempt), completed with passes owed: the queue holds it until its passes are
            // recorded.
            var again = CheckoutFixtures.claimed(reopened, orderId: "o-h-2")
            again.authorizationAttempts = 2
            #expect(try await store.claimAuthorization(again, transactionIdentifier: "tx-h-2", at: .now) == .claimed)
            var order = CheckoutFixtures.order("o-h-2", sessionId: "h-1")
            order.passes = []
            #expect(try await store.completeAuthorization(
                order: order, session: CheckoutFixtures.authorized(released, orderId: order.id), passesOwed: true))
            #expect(try await store.ordersOwingPasses(limit: 10) == [order])
            var issued = order
            issued.passes = CheckoutFixtures.order("o-h-2", sessionId: "h-1").passes
            #expect(try await store.completePasses(order: issued))
            #expect(try await store.completePasses(order: issued) == false)
            #expect(try await store.ordersOwingPasses(limit: 10).isEmpty)
            #expect(try await store.order(id: "o-h-2") == issued)
        }
    }
}
