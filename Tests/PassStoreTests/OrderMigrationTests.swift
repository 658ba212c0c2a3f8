import Foundation
import PassStore
import SQLiteStore
import Testing
import TesseraTestSupport

/// The orders migration on a store made before orders existed: new tables only, the pass tables untouched.
@Suite("Orders migration on an existing SQLite store")
struct OrderMigrationTests {
    /// The schema of the pass tables and their indexes, as SQLite keeps it.
    private func passSchema(_ path: String) async throws -> String {
        let result = try await Subprocess.run("/usr/bin/env", ["sqlite3", path, """
            SELECT type, name, sql FROM sqlite_master
            WHERE tbl_name IN ('passes', 'devices', 'registrations', 'push_queue', 'counters') ORDER BY name;
            """])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("a store at the first schema gains the order tables; its passes, registrations and indexes stay as they were")
    func upgrade() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        do {
            let store = try SQLiteStore(path: path)
            try await store.migrate()
            try await Fixtures.insert(["U1", "U2"], into: store)
            _ = try await Fixtures.register("dev-1", token: "token", "U1", in: store)
        }
        // Back to the schema before orders: what a store made by the previous release holds.
        let downgrade = try await Subprocess.run("/usr/bin/env", ["sqlite3", path, """
            DROP TABLE order_push_queue; DROP TABLE order_registrations; DROP TABLE order_devices; DROP TABLE orders;
            DELETE FROM counters WHERE name = 'order_update_tag';
            DELETE FROM grdb_migrations WHERE identifier LIKE 'v2:%';
            """])
        try #require(downgrade.status == 0, "\(downgrade.stderr)")
        let before = try await passSchema(path)

        let store = try SQLiteStore(path: path)
        try await store.migrate()
        await #expect(try passSchema(path) == before)
        #expect(try await Fixtures.count("U1", in: store) == 1)
        #expect(try await Fixtures.serialNumbers("dev-1", in: store)?.serialNumbers == ["U1"])
        let orders = store.orderStore()
        let order = try await Fixtures.insert(["O1"], passType: "order.com.example.shop", into: orders)[0]
        #expect(order.updateTag == 1)
        #expect(try await Fixtures.register("dev-1", token: "token", "O1", passType: "order.com.example.shop", in: orders)
            == .created)
        #expect(try await store.pass(passTypeIdentifier: "order.com.example.shop", serialNumber: "O1") == nil)
    }
}
