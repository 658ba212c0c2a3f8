import Foundation
import Logging
import PassStore
import SQLiteStore
import Testing
import TesseraTestSupport

import PostgresNIO
import PostgresStore

/// The stores the conformance suite runs against: each store's passes, and the orders beside them (the same
/// device protocol machinery over the order tables).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres
    case sqliteOrders = "sqlite orders", postgresOrders = "postgres orders"

    var testDescription: String { rawValue }

    /// Every kind, less PostgreSQL when `TESSERA_SKIP_POSTGRES=1` says so explicitly.
    static let tested: [StoreKind] =
        TestPostgres.skipped ? [.memory, .sqlite, .sqliteOrders] : allCases

    static let logger: Logger = {
        var logger = Logger(label: "tessera.tests.store")
        logger.logLevel = .warning
        return logger
    }()
}

/// Runs `body` with a fresh, migrated store of a kind, and cleans up after it (temporary SQLite file, PostgreSQL
/// schema). The PostgreSQL case records a failure when no server is configured.
func withStore(_ kind: StoreKind, _ body: (any PassStore) async throws -> Void) async throws {
    switch kind {
    case .memory:
        let store = MemoryPassStore()
        try await store.migrate()
        try await body(store)
    case .sqlite, .sqliteOrders:
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("nested/store.sqlite").path)
        try await store.migrate()
        try await body(kind == .sqlite ? store : store.orderStore())
    case .postgres, .postgresOrders:
        try await withPostgresStores(count: 1) { stores in
            try await body(kind == .postgres ? stores[0] : stores[0].orderStore())
        }
    }
}

/// Runs `body` with `count` PostgresStore instances on one fresh schema (each with its own connection pool), all
/// migrated at the same time; drops the schema afterwards.
func withPostgresStores(count: Int, _ body: ([PostgresStore]) async throws -> Void) async throws {
    guard let url = TestPostgres.url else {
        Issue.record(Comment(rawValue: TestPostgres.missingServer("PostgresStore")))
        return
    }
    try await TestPostgres.withStores(url: url, count: count, schemaPrefix: "tessera_test", logger: StoreKind.logger) {
        stores in
        try await TestPostgres.concurrently(stores) { try await $0.migrate() }
        try await body(stores)
    }
}

/// Runs `body` with the path of an SQLite file in a folder of its own, removed afterwards.
func withSQLiteFile(_ body: (String) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder.appendingPathComponent("store.sqlite").path)
}

/// Creates a store's schema with only its first `count` migrations, as a release that stopped there left it.
func applyFirstMigrations(_ count: Int, to store: PostgresStore) async throws {
    try await store.pool.transaction(mapError: { $0 }) { connection in
        try await connection.applyMigrations(
            Array(PostgresStore.migrations.prefix(count)), versionTable: "schema_migrations",
            lockKey: PostgresStore.migrationLockKey, kind: "store", logger: StoreKind.logger
        ) { connection in
            // The search path is the quoted schema name.
            let rows = try await connection.query("SELECT current_setting('search_path')", logger: StoreKind.logger)
                .collect()
            let schema = try #require(rows.first).decode(String.self)
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: StoreKind.logger)
        }
    }
}
