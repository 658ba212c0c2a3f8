import Checkout
import CheckoutPersistence
import Foundation
import Testing

@Suite("PostgresCheckoutStore")
struct PostgresCheckoutStoreTests {
    @Test("three instances on one database migrate together; one authorization and one transaction insert win",
          .enabled(if: CheckoutStoreKind.tested.contains(.postgres)))
    func instancesRace() async throws {
        try await withPostgresCheckoutStores(count: 3) { stores async throws in
            let insertions = try await withThrowingTaskGroup(of: SessionInsertion.self) { group in
                for index in 0..<9 {
                    group.addTask { try await stores[index % 3].insertSession(CheckoutFixtures.session("i-\(index)", key: "k-i")) }
                }
                return try await group.reduce(into: [SessionInsertion]()) { $0.append($1) }
            }
            let created = insertions.compactMap { if case .created(let session) = $0 { session } else { nil } }
            try #require(created.count == 1)
            let stored = created[0]
            #expect(insertions.allSatisfy { $0 == .created(stored) || $0 == .existing(stored) })

            let results = try await withThrowingTaskGroup(of: (Int, Bool, Bool).self) { group in
                for index in 0..<21 {
                    group.addTask {
                        let store = stores[index % 3]
                        async let claim = store.claimAuthorization(
                            CheckoutFixtures.claimed(stored, orderId: "o-i-\(index)", transaction: "tx-i-\(index)"),
                            transactionIdentifier: "tx-i-\(index)", at: .now)
                        async let fresh = store.insertTransactionIdentifier("0badf00d", sessionId: stored.id, at: .now)
                        return try await (index, claim == .claimed, fresh)
                    }
                }
                return try await group.reduce(into: [(Int, Bool, Bool)]()) { $0.append($1) }
            }
            let winners = results.filter(\.1).map(\.0)
            try #require(winners.count == 1)
            #expect(results.filter(\.2).count == 1)
            let order = CheckoutFixtures.order("o-i-\(winners[0])", sessionId: stored.id)
            #expect(try await stores[1].completeAuthorization(
                order: order, session: CheckoutFixtures.authorized(stored, orderId: order.id)))
            let orderId = try #require(try await stores[2].session(id: stored.id)?.orderId)
            #expect(try await stores[0].order(id: orderId)?.sessionId == stored.id)
        }
    }

    @Test("migrating without the pass store's schema fails with a migration error",
          .enabled(if: CheckoutStoreKind.tested.contains(.postgres)))
    func migrationNeedsSchema() async throws {
        try await withMissingSchemaStore { store async throws in
            await #expect {
                try await store.migrate()
            } throws: { error in
                (error as? CheckoutPersistenceError)?.code == .migrationFailed
            }
        }
    }
}
