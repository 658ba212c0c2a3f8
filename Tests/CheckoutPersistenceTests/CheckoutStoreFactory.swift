import Checkout
import CheckoutPersistence
import Foundation
import Logging
import SQLiteStore
import Testing

@testable import PostgresStore

/// The checkout stores the conformance suite runs against.
enum CheckoutStoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres

    var testDescription: String { rawValue }

    /// Every kind, less PostgreSQL when `TESSERA_SKIP_POSTGRES=1` says so explicitly.
    static let tested: [CheckoutStoreKind] =
        ProcessInfo.processInfo.environment["TESSERA_SKIP_POSTGRES"] == "1" ? [.memory, .sqlite] : allCases

    static let postgresHelp = """
        TESSERA_TEST_POSTGRES_URL is not set: the PostgresCheckoutStore tests need a server. Start the throwaway one \
        with `export TESSERA_TEST_POSTGRES_URL="$(scripts/postgres.sh)"` (scripts/test.sh does it), or set \
        TESSERA_SKIP_POSTGRES=1 to leave PostgreSQL out.
        """

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["TESSERA_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

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
    guard let url = CheckoutStoreKind.postgresURL else {
        Issue.record(Comment(rawValue: CheckoutStoreKind.postgresHelp))
        return
    }
    var configuration = try PostgresStore.Configuration(url: url)
    configuration.schema = "tessera_checkout_test_\(UUID().uuidString.prefix(8).lowercased())"
    configuration.maximumConnections = 8
    let passStores = (0..<count).map { _ in
        PostgresStore(configuration: configuration, logger: CheckoutStoreKind.logger)
    }
    let stores = passStores.map { PostgresCheckoutStore(store: $0, logger: CheckoutStoreKind.logger) }
    try await withThrowingTaskGroup(of: Void.self) { group in
        for passStore in passStores {
            group.addTask { try await passStore.run() }
        }
        defer { group.cancelAll() }
        try await withThrowingTaskGroup(of: Void.self) { migrations in
            for (passStore, store) in zip(passStores, stores) {
                migrations.addTask {
                    try await passStore.migrate()
                    try await store.migrate()
                }
            }
            try await migrations.waitForAll()
        }
        do {
            try await body(stores)
        } catch {
            try? await passStores[0].dropSchema()
            throw error
        }
        try await passStores[0].dropSchema()
    }
}

/// Runs `body` with a checkout store whose pass store points at a schema nobody created (its pool running).
func withMissingSchemaStore(_ body: (PostgresCheckoutStore) async throws -> Void) async throws {
    guard let url = CheckoutStoreKind.postgresURL else {
        Issue.record(Comment(rawValue: CheckoutStoreKind.postgresHelp))
        return
    }
    var configuration = try PostgresStore.Configuration(url: url)
    configuration.schema = "tessera_checkout_missing_\(UUID().uuidString.prefix(8).lowercased())"
    configuration.maximumConnections = 2
    let passStore = PostgresStore(configuration: configuration, logger: CheckoutStoreKind.logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await passStore.run() }
        defer { group.cancelAll() }
        try await body(PostgresCheckoutStore(store: passStore, logger: CheckoutStoreKind.logger))
    }
}
