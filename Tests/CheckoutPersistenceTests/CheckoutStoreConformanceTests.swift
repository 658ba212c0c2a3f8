import Checkout
import Foundation
import Testing

/// The behaviour every ``CheckoutStore`` shares, run against each store (memory, SQLite, PostgreSQL).
@Suite("CheckoutStore conformance")
struct CheckoutStoreConformanceTests {
    @Test("a second insert with the same idempotency key returns the stored session", arguments: CheckoutStoreKind.tested)
    func idempotentInsert(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let first = CheckoutFixtures.session("s-1", key: "k-1")
            #expect(try await store.insertSession(first) == .created(first))

            var retry = CheckoutFixtures.session("s-2", key: "k-1")
            retry.requestHash = "another-body"
            #expect(try await store.insertSession(retry) == .existing(first))
            #expect(try await store.session(id: "s-2") == nil)
            #expect(try await store.session(id: "s-1") == first)
            #expect(try await store.session(id: "nope") == nil)

            let other = CheckoutFixtures.session("s-3", key: "k-3")
            #expect(try await store.insertSession(other) == .created(other))
        }
    }

    @Test("concurrent inserts with one idempotency key create one session", arguments: CheckoutStoreKind.tested)
    func concurrentIdempotentInsert(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let results = try await withThrowingTaskGroup(of: SessionInsertion.self) { group in
                for index in 0..<10 {
                    group.addTask { try await store.insertSession(CheckoutFixtures.session("c-\(index)", key: "same")) }
                }
                return try await group.reduce(into: [SessionInsertion]()) { $0.append($1) }
            }
            let created = results.compactMap { if case .created(let session) = $0 { session } else { nil } }
            try #require(created.count == 1)
            for result in results {
                switch result {
                case .created(let session), .existing(let session): #expect(session == created[0])
                }
            }
        }
    }

    @Test("a session is replaced only while it is pending", arguments: CheckoutStoreKind.tested)
    func updateOnlyWhilePending(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let read = CheckoutFixtures.session("u-1")
            _ = try await store.insertSession(read)
            var session = read.nextRevision()
            session.couponCode = nil
            session.selectedShippingMethod = "standard"
            session.total = Decimal(string: "42.10")!
            #expect(try await store.updatePendingSession(session))
            #expect(try await store.session(id: "u-1") == session)

            // A change made from the session as it was before that update is refused: it would undo it.
            var stale = read.nextRevision()
            stale.couponCode = "STALE"
            #expect(try await store.updatePendingSession(stale) == false)
            // So is one that does not count itself a change.
            #expect(try await store.updatePendingSession(session) == false)
            #expect(try await store.session(id: "u-1") == session)

            // A session that is not stored is not created by an update.
            #expect(try await store.updatePendingSession(CheckoutFixtures.session("u-missing")) == false)
            #expect(try await store.session(id: "u-missing") == nil)

            let authorized = CheckoutFixtures.authorized(session, orderId: "o-u-1")
            #expect(try await store.claimAuthorization(CheckoutFixtures.claimed(session, orderId: "o-u-1"),
                                                       transactionIdentifier: "tx-u-1", at: CheckoutFixtures.now)
                    == .claimed)
            #expect(try await store.completeAuthorization(order: CheckoutFixtures.order("o-u-1", sessionId: "u-1"),
                                                          session: authorized))
            var late = session.nextRevision()
            late.couponCode = "LATE"
            #expect(try await store.updatePendingSession(late) == false)
            #expect(try await store.session(id: "u-1") == authorized)
        }
    }

    @Test("a transaction identifier is new once, then a replay", arguments: CheckoutStoreKind.tested)
    func transactionReplay(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let now = CheckoutFixtures.now
            #expect(try await store.insertTransactionIdentifier("a1b2c3", sessionId: "s-1", at: now))
            #expect(try await store.insertTransactionIdentifier("a1b2c3", sessionId: "s-1", at: now) == false)
            #expect(try await store.insertTransactionIdentifier("a1b2c3", sessionId: "s-2", at: now + 5) == false)
            #expect(try await store.insertTransactionIdentifier("d4e5f6", sessionId: "s-1", at: now))
        }
    }

    @Test("of 20 concurrent inserts of one transaction identifier exactly one is new", arguments: CheckoutStoreKind.tested)
    func concurrentTransactionReplay(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await store.insertTransactionIdentifier("feedface", sessionId: "s-\(index)", at: CheckoutFixtures.now)
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.count == 20)
            #expect(results.filter { $0 }.count == 1)
        }
    }

    @Test("an order and its session are read back with every field equal", arguments: CheckoutStoreKind.tested)
    func orderRoundTrip(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let session = CheckoutFixtures.session("r-1")
            _ = try await store.insertSession(session)
            let order = CheckoutFixtures.order("o-r-1", sessionId: "r-1")
            let authorized = CheckoutFixtures.authorized(session, orderId: order.id)
            #expect(try await store.claimAuthorization(CheckoutFixtures.claimed(session, orderId: order.id),
                                                       transactionIdentifier: "tx-r-1", at: CheckoutFixtures.now)
                    == .claimed)
            #expect(try await store.completeAuthorization(order: order, session: authorized))

            let stored = try #require(try await store.order(id: "o-r-1"))
            #expect(stored == order)
            #expect(stored.createdAt == order.createdAt)
            #expect(stored.total == Decimal(string: "47.39")!)
            #expect(stored.items[1].unitPrice == Decimal(string: "0.1")!)
            #expect(try await store.session(id: "r-1") == authorized)
            #expect(try await store.order(id: "nope") == nil)
        }
    }
}
