internal import Logging
internal import PostgresNIO
internal import PostgresStore

extension PostgresCheckoutStore {
    /// The key of the advisory lock checkout migrations run under (not the pass store's, so neither waits for the
    /// other's migrations).
    static let migrationLockKey: Int64 = 0x7465_7373_6368_6b31  // "tesschk1"

    /// Creates the checkout tables or brings them up to date, in the schema the pass store's connections use.
    ///
    /// Each migration's statements and its `checkout_schema_migrations` row are applied in one transaction that first
    /// takes a transaction-level advisory lock: a second process starting at the same time waits, then finds them
    /// applied.
    /// - Throws: ``CheckoutPersistenceError/migrationFailed(_:)`` when the schema is missing (run
    ///   ``PostgresStore/PostgresStore/migrate()`` first) or a migration fails (it is rolled back).
    public func migrate() async throws {
        do {
            try await transaction { connection in
                try await connection.applyMigrations(
                    Self.migrations, versionTable: "checkout_schema_migrations", lockKey: Self.migrationLockKey,
                    kind: "checkout", logger: logger
                ) { connection in
                    var schema: String?
                    for try await name in try await connection.query("SELECT current_schema()", logger: logger)
                        .decode(String?.self)
                    {
                        schema = name
                    }
                    guard schema != nil else {
                        throw CheckoutPersistenceError.migrationFailed(
                            "no schema of the search path exists: run PostgresStore.migrate() before the checkout migrations"
                        )
                    }
                }
            }
        } catch let error as CheckoutPersistenceError where error.code == .unavailable {
            throw CheckoutPersistenceError.migrationFailed("PostgreSQL checkout migration failed: \(error.reason)")
        }
    }

    /// The migrations in order (version = index + 1), one statement per string. Never edit a released one. Like the pass
    /// store's, they run inside one PL/pgSQL block: DDL and DML only, no statement that returns rows.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE checkout_sessions (
                id text PRIMARY KEY,
                idempotency_key text NOT NULL,
                request_hash text NOT NULL,
                state text NOT NULL,
                document jsonb NOT NULL,
                updated_at timestamptz NOT NULL,
                CONSTRAINT checkout_sessions_idempotency_key_key UNIQUE (idempotency_key)
            )
            """,
            """
            CREATE TABLE checkout_transactions (
                transaction_identifier text PRIMARY KEY,
                session_id text NOT NULL,
                seen_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX checkout_transactions_session ON checkout_transactions (session_id)",
            """
            CREATE TABLE checkout_orders (
                id text PRIMARY KEY,
                session_id text NOT NULL REFERENCES checkout_sessions (id),
                document jsonb NOT NULL,
                created_at timestamptz NOT NULL,
                CONSTRAINT checkout_orders_session_id_key UNIQUE (session_id)
            )
            """,
        ],
        [
            """
            CREATE INDEX checkout_sessions_held ON checkout_sessions (updated_at)
            WHERE state IN ('authorizing', 'processorUnknown')
            """,
            """
            CREATE TABLE checkout_pass_queue (
                order_id text PRIMARY KEY REFERENCES checkout_orders (id),
                queued_at timestamptz NOT NULL
            )
            """,
        ],
        [
            // Who holds an authorization (null for sessions held before the column existed) and each server
            // process's last heartbeat: added, nothing changed.
            "ALTER TABLE checkout_sessions ADD COLUMN held_by text",
            """
            CREATE TABLE checkout_heartbeats (
                holder text PRIMARY KEY,
                beat_at timestamptz NOT NULL
            )
            """,
        ],
        [
            // Pending sessions by their last change, for deleting abandoned carts without reading the table.
            "CREATE INDEX checkout_sessions_pending ON checkout_sessions (updated_at) WHERE state = 'pending'",
        ],
    ]
}
