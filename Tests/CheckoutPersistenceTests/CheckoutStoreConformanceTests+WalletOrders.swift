import Checkout
import Foundation
import Testing

extension CheckoutStoreConformanceTests {
    static func walletOrder(_ token: String) -> WalletOrderDetails {
        WalletOrderDetails(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "o-w-1",
                           webServiceURL: "https://orders.example.com/", authenticationToken: token,
                           downloadURL: "https://orders.example.com/download/o-w-1.order")
    }

    @Test("an order keeps the first Wallet order recorded for it, and its passes do not overwrite it",
          arguments: CheckoutStoreKind.tested)
    func walletOrderKept(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let session = CheckoutFixtures.session("w-1")
            _ = try await store.insertSession(session)
            #expect(try await store.claimAuthorization(CheckoutFixtures.claimed(session, orderId: "o-w-1"),
                                                       transactionIdentifier: "tx-w-1", at: CheckoutFixtures.now)
                    == .claimed)
            var order = CheckoutFixtures.order("o-w-1", sessionId: "w-1")
            order.passes = []
            #expect(try await store.completeAuthorization(
                order: order, session: CheckoutFixtures.authorized(session, orderId: order.id), passesOwed: true))
            // Stored without one (as every order before Wallet orders), it reads back without one.
            #expect(try await store.order(id: order.id)?.walletOrder == nil)
            #expect(try await store.recordWalletOrder(Self.walletOrder("token-first-0000"), orderId: "o-missing") == nil)

            let first = Self.walletOrder("token-first-0000")
            var expected = order
            expected.walletOrder = first
            #expect(try await store.recordWalletOrder(first, orderId: order.id) == expected)
            // A second issuer's answer does not replace the first: both are told the one that stands.
            #expect(try await store.recordWalletOrder(Self.walletOrder("token-second-000"), orderId: order.id) == expected)
            #expect(try await store.order(id: order.id) == expected)

            // Passes recorded from a copy read before the Wallet order: the Wallet order stays.
            var issued = order
            issued.passes = CheckoutFixtures.order("o-w-1", sessionId: "w-1").passes
            #expect(try await store.completePasses(order: issued))
            var both = issued
            both.walletOrder = first
            #expect(try await store.order(id: order.id) == both)
        }
    }

    @Test("concurrent recordings of an order's Wallet order agree on one", arguments: CheckoutStoreKind.tested)
    func concurrentWalletOrders(kind: CheckoutStoreKind) async throws {
        try await withCheckoutStore(kind) { store async throws in
            let session = CheckoutFixtures.session("w-2")
            _ = try await store.insertSession(session)
            _ = try await store.claimAuthorization(CheckoutFixtures.claimed(session, orderId: "o-w-2"),
                                                   transactionIdentifier: "tx-w-2", at: CheckoutFixtures.now)
            let order = CheckoutFixtures.order("o-w-2", sessionId: "w-2")
            #expect(try await store.completeAuthorization(
                order: order, session: CheckoutFixtures.authorized(session, orderId: order.id)))
            let answers = try await withThrowingTaskGroup(of: WalletOrderDetails?.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await store.recordWalletOrder(Self.walletOrder("token-\(index)-0000000000"),
                                                          orderId: order.id)?.walletOrder
                    }
                }
                return try await group.reduce(into: [WalletOrderDetails?]()) { $0.append($1) }
            }
            let stored = try #require(try await store.order(id: order.id)?.walletOrder)
            #expect(answers.count == 8)
            #expect(answers.allSatisfy { $0 == stored }, "\(answers)")
        }
    }
}
