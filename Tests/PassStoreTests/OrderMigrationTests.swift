import Foundation
import PassStore
import SQLiteStore
import Testing
import TesseraTestSupport

/// The orders migration on a store made before orders existed: new tables only, the pass tables untouched.
@Suite("Migrations on an existing SQLite store")
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

    @Test("a store at the first schema gains the order, campaign, template version, event, redemption and analytics tables; its passes and registrations stay")
    func upgrade() async throws {
        try await withSQLiteFile { path in
            do {
                let store = try SQLiteStore(path: path)
                try await store.migrate()
                try await Fixtures.insert(["U1", "U2"], into: store)
                _ = try await Fixtures.register("dev-1", token: "token", "U1", in: store)
            }
            // The pass tables as a store made at the latest schema has them.
            let latest = try await passSchema(path)
            // Back to the schema before orders (and what came after them): what a store made by that release holds.
            let downgrade = try await Subprocess.run("/usr/bin/env", ["sqlite3", path, """
                DROP INDEX passes_template_version; DROP INDEX passes_listing_template; DROP INDEX passes_listing_voided;
                DROP TABLE order_push_queue; DROP TABLE order_registrations; DROP TABLE order_devices; DROP TABLE orders;
                DELETE FROM counters WHERE name = 'order_update_tag';
                DROP TABLE campaign_pushes; DROP TABLE campaigns; DROP INDEX passes_template;
                DROP TABLE template_versions; ALTER TABLE passes DROP COLUMN template_version;
                DROP TABLE events; DROP TABLE webhook_deliveries;
                DROP TABLE redemptions; DROP INDEX passes_barcode_message; ALTER TABLE passes DROP COLUMN redemptions;
                DROP TABLE analytics_hourly; DROP TABLE analytics_registrations; DROP TABLE analytics_state;
                DROP TABLE campaign_push_counts; DROP TABLE api_keys; DROP TABLE google_callbacks;
                DROP TABLE console_sessions; DROP TABLE webhook_attempts; DROP TABLE webhook_retry_requests;
                ALTER TABLE push_queue DROP COLUMN campaigns;
                DELETE FROM grdb_migrations WHERE identifier NOT LIKE 'v1:%';
                """])
            try #require(downgrade.status == 0, "\(downgrade.stderr)")
            #expect(try await passSchema(path) != latest)

            let store = try SQLiteStore(path: path)
            try await store.migrate()
            // The migrations after the first leave the pass tables exactly as a new store has them, rows kept.
            await #expect(try passSchema(path) == latest)
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
}
