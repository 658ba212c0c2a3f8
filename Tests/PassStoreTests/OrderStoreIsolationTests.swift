import Foundation
import PassStore
import PostgresStore
import SQLiteStore
import Testing

/// Passes and orders share one database and the same device protocol code, but never each other's records.
@Suite("Orders beside passes in one store")
struct OrderStoreIsolationTests {
    enum Database: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, postgres
        var testDescription: String { rawValue }
        static let tested: [Database] = StoreKind.tested.contains(.postgres) ? allCases : [.sqlite]
    }

    /// Runs `body` with the pass store and the order store of one fresh database.
    private func withStores(
        _ database: Database, _ body: (_ passes: any PassStore, _ orders: any PassStore) async throws -> Void
    ) async throws {
        switch database {
        case .sqlite:
            try await withStore(.sqlite) { store in
                let sqlite = try #require(store as? SQLiteStore)
                try await body(sqlite, sqlite.orderStore())
            }
        case .postgres:
            try await withPostgresStores(count: 1) { stores in try await body(stores[0], stores[0].orderStore()) }
        }
    }

    @Test("a pass and an order with the same identifiers are separate records, registrations and pushes",
          arguments: Database.tested)
    func isolation(database: Database) async throws {
        try await withStores(database) { passes, orders in
            let type = "order.com.example.shop"
            try await Fixtures.insert(["A1"], passType: type, into: orders)
            // Nothing of the order is visible as a pass: fetch, credential lookup, download, registration.
            #expect(try await passes.pass(passTypeIdentifier: type, serialNumber: "A1") == nil)
            #expect(try await passes.passForAuthentication(passTypeIdentifier: type, serialNumber: "A1").pass == nil)
            #expect(try await passes.pass(downloadToken: "dl-\(type)-A1") == nil)
            await #expect(throws: PassStoreError.self) {
                _ = try await Fixtures.register("device-1", token: "t1", "A1", passType: type, in: passes)
            }
            // The same identifiers as a pass make a second record; each side lists and counts only its own.
            try await Fixtures.insert(["A1"], passType: type, into: passes)
            #expect(try await Fixtures.register("device-1", token: "order-token", "A1", passType: type, in: orders) == .created)
            #expect(try await Fixtures.count("A1", passType: type, in: orders) == 1)
            #expect(try await Fixtures.count("A1", passType: type, in: passes) == 0)
            #expect(try await Fixtures.serialNumbers("device-1", passType: type, in: orders)?.serialNumbers == ["A1"])
            #expect(try await Fixtures.serialNumbers("device-1", passType: type, in: passes) == nil)

            // An order change queues the order's push only in the order queue.
            let update = try await orders.updatePass(
                passTypeIdentifier: type, serialNumber: "A1", change: PassChange(data: Data("{}".utf8)),
                now: Fixtures.now)
            #expect(update?.pushesQueued == 1)
            #expect(try await passes.claimPushes(limit: 10, now: Fixtures.now, lease: 60).isEmpty)
            let claimed = try await orders.claimPushes(limit: 10, now: Fixtures.now, lease: 60)
            #expect(claimed.map(\.pushToken) == ["order-token"])
            #expect(claimed.map(\.passTypeIdentifier) == [type])
            // The pass record did not change with the order.
            #expect(try await passes.pass(passTypeIdentifier: type, serialNumber: "A1")?.data
                == Fixtures.newPass("A1", passType: type).data)
            // A push token rejected for passes leaves the order registration alone.
            #expect(try await passes.removeRegistrations(pushToken: "order-token", passTypeIdentifier: type,
                                                         unlessRefreshedAfter: nil) == 0)
            #expect(try await Fixtures.count("A1", passType: type, in: orders) == 1)
        }
    }
}
