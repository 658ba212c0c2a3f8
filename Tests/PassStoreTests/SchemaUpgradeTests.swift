import Foundation
import GRDB
import PassStore
import PostgresNIO
import PostgresStore
import SQLiteStore
import Testing
import TesseraTestSupport

/// Stores across releases: an older release refuses a schema a newer one migrated, and an upgrade from an early
/// release goes through whatever its passes hold.
@Suite("Store schemas across releases")
struct SchemaUpgradeTests {
    @Test("SQLite: a file a newer release migrated is refused, naming the file and the migration; nothing is written")
    func sqliteNewer() async throws {
        try await withSQLiteFile { path in
            do {
                let store = try SQLiteStore(path: path)
                try await store.migrate()
                try await store.pool.write { db in
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: a later release')")
                }
            }
            let store = try SQLiteStore(path: path)
            let refused = await #expect(throws: PassStoreError.self) { try await store.migrate() }
            let message = "\(refused.map { $0 } as Any)"
            #expect(message.contains("newer release") && message.contains("v99: a later release") && message.contains(path),
                    "\(message)")
        }
    }

    @Test("PostgreSQL: a schema a newer release migrated is refused, naming the version",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func postgresNewer() async throws {
        let url = try #require(TestPostgres.url)
        try await TestPostgres.withStores(url: url, count: 1, schemaPrefix: "tessera_newer", logger: StoreKind.logger) {
            stores in
            let store = stores[0]
            try await store.migrate()
            _ = try await store.pool.rows(PostgresQuery(unsafeSQL: "INSERT INTO schema_migrations (version) VALUES (999)"),
                                          mapError: { $0 })
            let refused = await #expect(throws: (any Error).self) { try await store.migrate() }
            let message = "\(refused.map { $0 } as Any)"
            #expect(message.contains("newer release") && message.contains("999"), "\(message)")
        }
    }

    @Test("PostgreSQL: a store from before redemptions holding a barcode message past a B-tree entry's limit upgrades",
          .enabled(if: StoreKind.tested.contains(.postgres)))
    func postgresLongBarcodeUpgrade() async throws {
        let url = try #require(TestPostgres.url)
        try await TestPostgres.withStores(url: url, count: 1, schemaPrefix: "tessera_upgrade", logger: StoreKind.logger) {
            stores in
            let store = stores[0]
            try await applyFirstMigrations(6, to: store)
            // A QR code's signed token: 3,000 characters, written when no index limited it.
            // (Random, as a signature is: a repeated letter would be compressed into the entry.)
            let message = String((0..<3_000).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
            let data = try JSONSerialization.data(withJSONObject: ["barcodeMessage": message])
            _ = try await store.pool.rows("""
                INSERT INTO passes (pass_type_identifier, serial_number, authentication_token, template, data,
                    download_token, update_tag, last_modified, created_at)
                VALUES (\(Fixtures.passType), 'LONG-1', 'token-0123456789abcdef', 'event-ticket', \(data),
                    'download-long-1', 1, now(), now())
                """, mapError: { $0 })
            try await store.migrate()
            let found = try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "LONG-1")
            #expect(found != nil)
        }
    }
}
