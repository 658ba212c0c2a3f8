public import Checkout
public import Foundation
internal import GRDB
public import SQLiteStore

/// A ``Checkout/CheckoutStore`` in the pass web service's SQLite file: sessions, seen transaction identifiers and
/// orders in three tables of the same database, through the same GRDB `DatabasePool`.
///
/// Each method is one transaction on the pool's single writer (or one read on a reader), so a session is authorized
/// and its order stored together or not at all, and across processes sharing the file SQLite's write lock keeps
/// them one after another. Sessions and orders are stored as JSON documents and read back unchanged. Call
/// ``migrate()`` once before use (after or before ``SQLiteStore/SQLiteStore/migrate()``: the two schemas are
/// independent migrations in one migration table).
public final class SQLiteCheckoutStore: CheckoutStore {
    let pool: DatabasePool
    let now: @Sendable () -> Date

    /// Creates a checkout store in the same database file as a pass store.
    /// - Parameters:
    ///   - store: The pass web service's store, whose connection pool is shared.
    ///   - now: The clock stamping `updated_at` columns.
    public init(store: SQLiteStore, now: @escaping @Sendable () -> Date = { Date() }) {
        pool = store.pool
        self.now = now
    }

    /// Creates the checkout tables or brings them up to date (GRDB migrations named `checkout-v…`, each applied once).
    /// - Throws: ``CheckoutPersistenceError/migrationFailed(_:)`` when a migration fails (it is rolled back).
    public func migrate() async throws {
        let newer: [String]
        do {
            newer = try SQLiteStore.migrations(in: pool, unknownTo: Self.migrator) { $0.hasPrefix("checkout-") }
        } catch {
            throw CheckoutPersistenceError.migrationFailed("SQLite checkout migration failed: \(error)")
        }
        if !newer.isEmpty {
            throw CheckoutPersistenceError.migrationFailed(SQLiteStore.newerRelease(pool.path, newer))
        }
        do {
            try Self.migrator.migrate(pool)
        } catch {
            throw CheckoutPersistenceError.migrationFailed("SQLite checkout migration failed: \(error)")
        }
    }

    /// The checkout schema's migrations, in order. Never edit a released one: add the next.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("checkout-v1: sessions, transactions, orders") { db in
            try db.execute(sql: version1)
        }
        migrator.registerMigration("checkout-v2: authorization states, pass queue") { db in
            try db.execute(sql: version2)
        }
        migrator.registerMigration("checkout-v3: authorization holders, heartbeats") { db in
            try db.execute(sql: version3)
        }
        migrator.registerMigration("checkout-v4: abandoned sessions") { db in
            try db.execute(sql: version4)
        }
        return migrator
    }()

    /// Pending sessions by their last change, for deleting abandoned carts without reading the table.
    private static let version4 = """
        CREATE INDEX checkout_sessions_pending ON checkout_sessions (updated_at) WHERE state = 'pending';
        """

    /// Who holds an authorization (a column, empty for sessions held before it existed) and each server process's
    /// last heartbeat: added, nothing changed.
    private static let version3 = """
        ALTER TABLE checkout_sessions ADD COLUMN held_by TEXT;

        CREATE TABLE checkout_heartbeats (
            holder TEXT NOT NULL PRIMARY KEY,
            beat_at REAL NOT NULL
        ) WITHOUT ROWID;
        """

    private static let version2 = """
        CREATE INDEX checkout_sessions_held ON checkout_sessions (updated_at)
            WHERE state IN ('authorizing', 'processorUnknown');

        CREATE TABLE checkout_pass_queue (
            order_id TEXT NOT NULL PRIMARY KEY REFERENCES checkout_orders (id),
            queued_at REAL NOT NULL
        ) WITHOUT ROWID;
        """

    private static let version1 = """
        CREATE TABLE checkout_sessions (
            id TEXT NOT NULL PRIMARY KEY,
            idempotency_key TEXT NOT NULL UNIQUE,
            request_hash TEXT NOT NULL,
            state TEXT NOT NULL,
            document TEXT NOT NULL,
            updated_at REAL NOT NULL
        );

        CREATE TABLE checkout_transactions (
            transaction_identifier TEXT NOT NULL PRIMARY KEY,
            session_id TEXT NOT NULL,
            seen_at REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX checkout_transactions_session ON checkout_transactions (session_id);

        CREATE TABLE checkout_orders (
            id TEXT NOT NULL PRIMARY KEY,
            session_id TEXT NOT NULL UNIQUE REFERENCES checkout_sessions (id),
            document TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        """

    /// Runs `body` in one write transaction: committed when it returns, rolled back when it throws. Database errors
    /// become ``CheckoutPersistenceError``.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.write(body)
        } catch let error as CheckoutPersistenceError {
            throw error
        } catch let error as CheckoutRollback {
            throw error
        } catch {
            throw CheckoutPersistenceError.unavailable("\(error)")
        }
    }

    /// Runs `body` on one of the pool's readers (a consistent snapshot, concurrent with the writer).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch let error as CheckoutPersistenceError {
            throw error
        } catch {
            throw CheckoutPersistenceError.unavailable("\(error)")
        }
    }
}
