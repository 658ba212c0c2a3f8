import Foundation
import Logging
import PassStore
import SQLiteStore
import Testing

@testable import PostgresStore

/// The stores the conformance suite runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres

    var testDescription: String { rawValue }

    /// Every kind, less PostgreSQL when `TESSERA_SKIP_POSTGRES=1` says so explicitly.
    static let tested: [StoreKind] =
        ProcessInfo.processInfo.environment["TESSERA_SKIP_POSTGRES"] == "1" ? [.memory, .sqlite] : allCases

    static let postgresHelp = """
        TESSERA_TEST_POSTGRES_URL is not set: the PostgresStore tests need a server. Start the throwaway one with
        `export TESSERA_TEST_POSTGRES_URL="$(scripts/postgres.sh)"` (scripts/test.sh does it), or set
        TESSERA_SKIP_POSTGRES=1 to leave PostgreSQL out.
        """

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["TESSERA_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

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
    case .sqlite:
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("nested/store.sqlite").path)
        try await store.migrate()
        try await body(store)
    case .postgres:
        try await withPostgresStores(count: 1) { stores in try await body(stores[0]) }
    }
}

/// Runs `body` with `count` PostgresStore instances on one fresh schema (each with its own connection pool), all
/// migrated at the same time; drops the schema afterwards.
func withPostgresStores(count: Int, _ body: ([PostgresStore]) async throws -> Void) async throws {
    guard let url = StoreKind.postgresURL else {
        Issue.record(Comment(rawValue: StoreKind.postgresHelp))
        return
    }
    var configuration = try PostgresStore.Configuration(url: url)
    configuration.schema = "tessera_test_\(UUID().uuidString.prefix(8).lowercased())"
    configuration.maximumConnections = 8
    let stores = (0..<count).map { _ in PostgresStore(configuration: configuration, logger: StoreKind.logger) }
    try await withThrowingTaskGroup(of: Void.self) { group in
        for store in stores {
            group.addTask { try await store.run() }
        }
        defer { group.cancelAll() }
        try await withThrowingTaskGroup(of: Void.self) { migrations in
            for store in stores {
                migrations.addTask { try await store.migrate() }
            }
            try await migrations.waitForAll()
        }
        do {
            try await body(stores)
        } catch {
            try? await stores[0].dropSchema()
            throw error
        }
        try await stores[0].dropSchema()
    }
}
