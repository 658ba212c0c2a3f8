import Foundation
public import Logging
public import PostgresStore

/// The throwaway PostgreSQL server the store tests use: `TESSERA_TEST_POSTGRES_URL` (scripts/test.sh starts one with
/// scripts/postgres.sh and sets it); `TESSERA_SKIP_POSTGRES=1` leaves PostgreSQL out explicitly.
public enum TestPostgres {
    /// The server's URL, or `nil` when none is configured.
    public static var url: String? {
        ProcessInfo.processInfo.environment["TESSERA_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether PostgreSQL was left out on purpose.
    public static var skipped: Bool { ProcessInfo.processInfo.environment["TESSERA_SKIP_POSTGRES"] == "1" }

    /// What to do when no server is configured, for the tests of `what`.
    public static func missingServer(_ what: String) -> String {
        """
        TESSERA_TEST_POSTGRES_URL is not set: the \(what) tests need a server. Start the throwaway one with \
        `export TESSERA_TEST_POSTGRES_URL="$(scripts/postgres.sh)"` (scripts/test.sh does it), or set \
        TESSERA_SKIP_POSTGRES=1 to leave PostgreSQL out.
        """
    }

    /// The connections the test process's own pools (``withStores(url:count:schemaPrefix:maximumConnections:logger:_:)``)
    /// hold at most, together. A store's pool opens all its connections when it starts, and the suite starts its
    /// PostgreSQL tests at the same time: unbounded, they asked for about as many connections as the test server
    /// accepts (`max_connections=500` in scripts/postgres.sh), and with the `tessera serve` processes of other tests
    /// on top (each with its own pool of up to 32) the server refused connections until a pool, after 60 s without
    /// one, failed its queries with `connectionCreationCircuitBreakerTripped`. Within the budget, a test waits for
    /// connections that others give back instead; the rest of `max_connections` is for the `tessera serve` processes.
    public static let connectionBudget = ConnectionBudget(total: 100)

    /// Runs `body` with `count` running `PostgresStore`s on one fresh schema `<schemaPrefix>_<random>`, each with its
    /// own connection pool (like separate server processes), none migrated yet; drops the schema afterwards, also
    /// when `body` throws. The pools' connections are taken from ``connectionBudget`` (waiting for them when other
    /// tests hold it) and are closed before this returns.
    /// - Parameters:
    ///   - maximumConnections: Each pool's size: a test's statements run a few at a time, and every connection a pool
    ///     opens is one the other tests running meanwhile wait for.
    public static func withStores(
        url: String, count: Int, schemaPrefix: String, maximumConnections: Int = 2, logger: Logger,
        _ body: ([PostgresStore]) async throws -> Void
    ) async throws {
        var configuration = try PostgresStore.Configuration(url: url)
        configuration.schema = "\(schemaPrefix)_\(UUID().uuidString.prefix(8).lowercased())"
        configuration.maximumConnections = maximumConnections
        try await connectionBudget.withConnections(count * maximumConnections) {
            let stores = (0..<count).map { _ in PostgresStore(configuration: configuration, logger: logger) }
            // The group ends once every pool's run() has returned, which is after its connections are closed.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in stores {
                    group.addTask { try await store.run() }
                }
                defer { group.cancelAll() }
                do {
                    try await body(stores)
                } catch {
                    try? await stores[0].dropSchema()
                    throw error
                }
                try await stores[0].dropSchema()
            }
        }
    }

    /// Runs `body` with a running `PostgresStore` of one connection on the database and schema `url` names (the one a
    /// `tessera serve` under test uses, say), to look at or lock what that server works on. Neither migrates nor
    /// drops the schema.
    public static func withStore(url: String, logger: Logger, _ body: (PostgresStore) async throws -> Void) async throws {
        var configuration = try PostgresStore.Configuration(url: url)
        configuration.maximumConnections = 1
        try await connectionBudget.withConnections(1) {
            let store = PostgresStore(configuration: configuration, logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await store.run() }
                defer { group.cancelAll() }
                try await body(store)
            }
        }
    }

    /// Runs `body` for every item at the same time (several instances migrating together) and waits for all.
    public static func concurrently<Item: Sendable>(
        _ items: [Item], _ body: @escaping @Sendable (Item) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for item in items {
                group.addTask { try await body(item) }
            }
            try await group.waitForAll()
        }
    }
}
