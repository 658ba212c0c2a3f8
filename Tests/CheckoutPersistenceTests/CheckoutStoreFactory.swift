import Checkout
import CheckoutPersistence
import Foundation
import Logging
import SQLiteStore
import Testing
import TesseraTestSupport

import PostgresStore

/// The checkout stores the conformance suite runs against.
enum CheckoutStoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres

    var testDescription: String { rawValue }

    /// Every kind, less PostgreSQL when `TESSERA_SKIP_POSTGRES=1` says so explicitly.
    static let tested: [CheckoutStoreKind] = TestPostgres.skipped ? [.memory, .sqlite] : allCases

    static let logger: Logger = {
        var logger = Logger(label: "tessera.tests.checkout-store")
        logger.logLevel = .warning
        return logger
    }()
}

/// A temporary folder for SQLite files, removed when `body` returns.
func withTemporaryFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-checkout-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
}

/// Runs `body` with a fresh, migrated checkout store of a kind and cleans up after it (temporary SQLite file,
/// PostgreSQL schema). The PostgreSQL case records a failure when no server is configured.
func withCheckoutStore(_ kind: CheckoutStoreKind, _ body: (any CheckoutStore) async throws -> Void) async throws {
    switch kind {
    case .memory:
        try await body(MemoryCheckoutStore())
    case .sqlite:
        try await withTemporaryFolder { folder async throws in
            let passStore = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path)
            try await passStore.migrate()
            let store = SQLiteCheckoutStore(store: passStore)
            try await store.migrate()
            try await body(store)
        }
    case .postgres:
        try await withPostgresCheckoutStores(count: 1) { stores in try await body(stores[0]) }
    }
}

/// Runs `body` with `count` checkout stores on one fresh PostgreSQL schema, each over its own `PostgresStore` (its
/// own connection pool, like separate server processes), all migrated at the same time; drops the schema afterwards.
func withPostgresCheckoutStores(count: Int, _ body: ([PostgresCheckoutStore]) async throws -> Void) async throws {
    guard let url = TestPostgres.url else {
        Issue.record(Comment(rawValue: TestPostgres.missingServer("PostgresCheckoutStore")))
        return
    }
    try await TestPostgres.withStores(
        url: url, count: count, schemaPrefix: "tessera_checkout_test", logger: CheckoutStoreKind.logger
    ) { passStores in
        let stores = passStores.map { PostgresCheckoutStore(store: $0, logger: CheckoutStoreKind.logger) }
        try await TestPostgres.concurrently(Array(zip(passStores, stores))) { passStore, store in
            try await passStore.migrate()
            try await store.migrate()
        }
        try await body(stores)
    }
}

/// Runs `body` with a checkout store whose pass store points at a schema nobody created (its pool running).
func withMissingSchemaStore(_ body: (PostgresCheckoutStore) async throws -> Void) async throws {
    guard let url = TestPostgres.url else {
        Issue.record(Comment(rawValue: TestPostgres.missingServer("PostgresCheckoutStore")))
        return
    }
    try await TestPostgres.withStores(
        url: url, count: 1, schemaPrefix: "tessera_checkout_missing", maximumConnections: 2,
        logger: CheckoutStoreKind.logger
    ) { passStores in
        try await body(PostgresCheckoutStore(store: passStores[0], logger: CheckoutStoreKind.logger))
    }
}
