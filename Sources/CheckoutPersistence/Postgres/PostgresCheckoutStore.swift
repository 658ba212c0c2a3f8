public import Checkout
public import Foundation
public import Logging
internal import PostgresNIO
public import PostgresStore

/// A ``Checkout/CheckoutStore`` in the pass web service's PostgreSQL database, through the same
/// ``PostgresStore/PostgresConnectionPool`` (so the same connections, search path and schema): for several server instances sharing one database.
///
/// The pass store must be running (its ``PostgresStore/PostgresStore/run()``) before any call, and its
/// ``PostgresStore/PostgresStore/migrate()`` must have created the schema before ``migrate()`` runs.
///
/// Each method is one statement or one transaction. Idempotency keys and transaction identifiers are claimed with
/// `INSERT … ON CONFLICT DO NOTHING RETURNING`, so of two processes inserting the same one exactly one gets a row;
/// authorization updates the session only `WHERE state = 'pending'` (the row lock makes a concurrent second update
/// wait and then find it authorized) and stores the order in the same transaction.
public final class PostgresCheckoutStore: CheckoutStore {
    let pool: PostgresConnectionPool
    let logger: Logger
    let now: @Sendable () -> Date

    /// Creates a checkout store on a pass store's database.
    /// - Parameters:
    ///   - store: The pass web service's store, whose connection pool is shared.
    ///   - logger: Where the store logs its queries and migrations.
    ///   - now: The clock stamping `updated_at` columns.
    public init(store: PostgresStore, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) {
        pool = store.pool
        self.logger = logger
        self.now = now
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back when it throws.
    /// Database errors come out as ``CheckoutPersistenceError``; a ``CheckoutRollback`` comes out as itself.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await pool.transaction(mapError: Self.storeError, body)
    }

    /// Runs one statement outside a transaction and collects its rows.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await pool.rows(query, mapError: Self.storeError)
    }

    static func storeError(_ error: any Error) -> any Error {
        switch error {
        case let error as CheckoutPersistenceError: error
        case let error as CheckoutRollback: error
        case let error as PSQLError:
            CheckoutPersistenceError.unavailable(error.serverDescription)
        case is CancellationError: error
        default: CheckoutPersistenceError.unavailable(String(reflecting: error))
        }
    }
}
