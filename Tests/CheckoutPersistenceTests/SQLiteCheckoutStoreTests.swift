import Checkout
import CheckoutPersistence
import Foundation
import GRDB
import PassStore
import SQLiteStore
import Testing

@Suite("SQLiteCheckoutStore")
struct SQLiteCheckoutStoreTests {
    @Test("a file whose checkout tables a newer release migrated is refused, naming the migration; the pass store's are not in question")
    func newerRelease() async throws {
        try await withTemporaryFolder { folder async throws in
            let path = folder.appendingPathComponent("store.sqlite").path
            do {
                let passStore = try SQLiteStore(path: path)
                try await passStore.migrate()
                try await SQLiteCheckoutStore(store: passStore).migrate()
                try await passStore.pool.write { db in
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('checkout-v99: a later release')")
                }
            }
            let passStore = try SQLiteStore(path: path)
            try await passStore.migrate()
            let refused = await #expect(throws: CheckoutPersistenceError.self) {
                try await SQLiteCheckoutStore(store: passStore).migrate()
            }
            #expect("\(refused.map { $0 } as Any)".contains("checkout-v99: a later release"))
        }
    }

    @Test("sessions, transaction identifiers and orders survive reopening the file; migrating twice is harmless")
    func reopen() async throws {
        try await withTemporaryFolder { folder async throws in
            let path = folder.appendingPathComponent("a/store.sqlite").path
            let session = CheckoutFixtures.session("p-1")
            let order = CheckoutFixtures.order("o-p-2", sessionId: "p-2")
            do {
                let passStore = try SQLiteStore(path: path)
                // Checkout tables first, pass tables second: the two migration sets are independent.
                let store = SQLiteCheckoutStore(store: passStore)
                try await store.migrate()
                try await passStore.migrate()
                _ = try await store.insertSession(session)
                _ = try await store.insertSession(CheckoutFixtures.session("p-2"))
                #expect(try await store.claimAuthorization(
                    CheckoutFixtures.claimed(CheckoutFixtures.session("p-2"), orderId: order.id),
                    transactionIdentifier: "tx-p-2", at: CheckoutFixtures.now) == .claimed)
                #expect(try await store.completeAuthorization(
                    order: order, session: CheckoutFixtures.authorized(CheckoutFixtures.session("p-2"), orderId: order.id)))
                #expect(try await store.insertTransactionIdentifier("cafe01", sessionId: "p-2", at: CheckoutFixtures.now))
            }
            let passStore = try SQLiteStore(path: path)
            try await passStore.migrate()
            let store = SQLiteCheckoutStore(store: passStore)
            try await store.migrate()
            try await store.migrate()
            #expect(try await store.session(id: "p-1") == session)
            #expect(try await store.order(id: order.id) == order)
            #expect(try await store.session(id: "p-2")?.state == .authorized)
            #expect(try await store.insertTransactionIdentifier("cafe01", sessionId: "p-2", at: CheckoutFixtures.now) == false)
            #expect(try await store.insertSession(CheckoutFixtures.session("p-9", key: session.idempotencyKey)) == .existing(session))

            // The pass store in the same file still works next to the checkout tables.
            let pass = NewPass(
                passTypeIdentifier: "pass.com.example.tickets", serialNumber: "S-1", authenticationToken: "auth-0123456789abcdef",
                template: "event", data: Data("{}".utf8), downloadToken: "dl-S-1"
            )
            _ = try await passStore.insertPass(pass, now: CheckoutFixtures.now)
            #expect(try await passStore.pass(downloadToken: "dl-S-1")?.serialNumber == "S-1")
        }
    }

    @Test("two stores on two pools of one file (like two processes) claim a session once")
    func twoPoolsOneFile() async throws {
        try await withTemporaryFolder { folder async throws in
            let path = folder.appendingPathComponent("store.sqlite").path
            let stores = try (0..<2).map { _ in SQLiteCheckoutStore(store: try SQLiteStore(path: path)) }
            try await stores[0].migrate()
            try await stores[1].migrate()
            let session = CheckoutFixtures.session("t-1")
            _ = try await stores[0].insertSession(session)
            let results = try await withThrowingTaskGroup(of: (Bool, Bool).self) { group in
                for index in 0..<10 {
                    group.addTask {
                        let store = stores[index % 2]
                        let won = try await store.claimAuthorization(
                            CheckoutFixtures.claimed(session, orderId: "o-t-\(index)", transaction: "tx-t-\(index)"),
                            transactionIdentifier: "tx-t-\(index)", at: CheckoutFixtures.now) == .claimed
                        let fresh = try await store.insertTransactionIdentifier("beef", sessionId: "t-1", at: CheckoutFixtures.now)
                        return (won, fresh)
                    }
                }
                return try await group.reduce(into: [(Bool, Bool)]()) { $0.append($1) }
            }
            #expect(results.filter(\.0).count == 1)
            #expect(results.filter(\.1).count == 1)
        }
    }
}
