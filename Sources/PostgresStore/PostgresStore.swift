import Foundation
public import Logging
public import PassStore
public import PostgresNIO
public import ServiceLifecycle

/// A ``PassStore/PassStore`` in PostgreSQL through postgres-nio's `PostgresClient`: for several server instances
/// sharing one database.
///
/// The store is a `Service`: its ``run()`` runs the client's connection pool, and no query goes out until it runs.
/// Add the store to the application's `ServiceGroup` (or run ``run()`` in a task of its own) before calling
/// ``migrate()`` or anything else; cancelling ``run()`` closes the connections.
///
/// Every method is one statement or one transaction. Update tags come from a counter row taken inside the writing
/// transaction, so tags commit in increasing order; push claims use `FOR UPDATE SKIP LOCKED`, so two instances never
/// claim the same push.
public final class PostgresStore: PassStore, Service {
    /// The database's connections, shared with the other stores that keep their tables in it (checkout).
    public let pool: PostgresConnectionPool
    let logger: Logger
    let configuration: Configuration
    /// The tables of the kind of item this store holds (passes, or orders for ``orderStore()``).
    let tables: ItemTables
    /// Orders this process's campaign batch writes until each has locked its campaign's row.
    let campaignWriteTurns: CampaignWriteTurns

    /// Creates a store for a configuration. Nothing connects until ``run()`` runs.
    /// - Parameters:
    ///   - configuration: Where the database is and how to reach it.
    ///   - logger: Where the store and its connection pool log.
    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        let tls: PostgresClient.Configuration.TLS
        switch configuration.tls {
        case .disable:
            tls = .disable
        case .prefer:
            tlsConfiguration.certificateVerification = .none
            tls = .prefer(tlsConfiguration)
        case .require:
            tlsConfiguration.certificateVerification = .none
            tls = .require(tlsConfiguration)
        case .verifyCA:
            tlsConfiguration.certificateVerification = .noHostnameVerification
            tls = .require(tlsConfiguration)
        case .verifyFull:
            tls = .require(tlsConfiguration)
        }
        var clientConfiguration: PostgresClient.Configuration
        if let socketPath = configuration.socketPath {
            clientConfiguration = PostgresClient.Configuration(
                unixSocketPath: socketPath, username: configuration.username, password: configuration.password,
                database: configuration.database)
        } else {
            clientConfiguration = PostgresClient.Configuration(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: tls)
        }
        // A fixed-size pool without keep-alive queries (see PostgresConnectionPool for why).
        clientConfiguration.options.maximumConnections = configuration.maximumConnections
        clientConfiguration.options.minimumConnections = configuration.maximumConnections
        clientConfiguration.options.keepAliveBehavior = nil
        if let schema = configuration.schema {
            clientConfiguration.options.additionalStartupParameters = [("search_path", Self.quoted(schema))]
        }
        pool = PostgresConnectionPool(
            client: PostgresClient(configuration: clientConfiguration, backgroundLogger: logger),
            size: configuration.maximumConnections, logger: logger)
        tables = .passes
        campaignWriteTurns = CampaignWriteTurns()
    }

    private init(sharing store: PostgresStore, tables: ItemTables) {
        pool = store.pool
        logger = store.logger
        configuration = store.configuration
        self.tables = tables
        campaignWriteTurns = store.campaignWriteTurns
    }

    /// The Wallet orders beside this store's passes: the same database and connection pool, and the same device
    /// protocol machinery (registrations, update tags, `lastModified`, push queue, authentication lookup), over
    /// tables of their own, so nothing asked of one kind ever reads or changes the other. Records hold the
    /// `orderTypeIdentifier` as ``PassStore/PassRecord/passTypeIdentifier`` and the `orderIdentifier` as
    /// ``PassStore/PassRecord/serialNumber``.
    ///
    /// The order store runs on this store's connection pool: run this store as the service; ``migrate()`` on either creates
    /// both kinds' tables.
    /// - Returns: A store of orders sharing this store's database.
    public func orderStore() -> PostgresStore {
        PostgresStore(sharing: self, tables: .orders)
    }

    /// Whether this store holds orders (its prepared statements are the order ones).
    var holdsOrders: Bool { tables.kind == ItemTables.orders.kind }

    /// Creates a store for a `postgres://user:password@host:port/database?sslmode=disable` URL.
    /// - Parameters:
    ///   - url: The database URL (see ``Configuration/init(url:)``).
    ///   - logger: Where the store and its connection pool log.
    /// - Throws: ``PassStore/PassStoreError/invalidData(_:)`` when the URL cannot be read.
    public convenience init(url: String, logger: Logger) throws {
        self.init(configuration: try Configuration(url: url), logger: logger)
    }

    /// Runs the connection pool until the task is cancelled (or the service group shuts down).
    public func run() async throws {
        await pool.run()
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back when it throws.
    /// Errors come out as ``PassStore/PassStoreError``.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await pool.transaction(mapError: Self.storeError, body)
    }

    /// Runs one statement outside a transaction and collects its rows.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await pool.rows(query, mapError: Self.storeError)
    }

    static func storeError(_ error: any Error) -> any Error {
        switch error {
        case let error as PassStoreError: error
        case let error as PSQLError:
            PassStoreError.unavailable(error.serverDescription)
        case is CancellationError: error
        default: PassStoreError.unavailable(String(reflecting: error))
        }
    }

    /// `name` as a quoted SQL identifier.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Takes the next update tag inside the current transaction; the counter row stays locked until it ends, so
    /// writers that take tags commit one after another, in tag order.
    func nextUpdateTag(_ connection: PostgresConnection) async throws -> Int64 {
        let rows = try await connection.query(
            "UPDATE counters SET value = value + 1 WHERE name = \(tables.counter) RETURNING value", logger: logger
        )
        for try await tag in rows.decode(Int64.self) { return tag }
        throw PassStoreError.invalidData("counters: the \(tables.counter) row is missing")
    }
}
