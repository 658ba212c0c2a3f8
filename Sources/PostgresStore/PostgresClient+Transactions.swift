package import Logging
package import PostgresNIO

extension PostgresClient {
    /// Runs `body` in one transaction on one connection (committed when it returns, rolled back when it throws),
    /// turning failures into the caller's error type with `mapError`. Shared by the PostgreSQL stores.
    package func transaction<T: Sendable>(
        logger: Logger, mapError: (any Error) -> any Error, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            throw mapError(error.closureError ?? error.beginError ?? error.commitError ?? error)
        } catch {
            throw mapError(error)
        }
    }

    /// Runs one statement outside a transaction and collects its rows, failures mapped by `mapError`.
    package func rows(_ query: PostgresQuery, logger: Logger, mapError: (any Error) -> any Error) async throws
        -> [PostgresRow]
    {
        do {
            return try await self.query(query, logger: logger).collect()
        } catch {
            throw mapError(error)
        }
    }
}

extension PostgresConnection {
    /// Applies the migrations not yet recorded in `versionTable` (version = index + 1), each migration's statements and
    /// its version row inside the caller's transaction. Takes the transaction-level advisory lock `lockKey` first, so
    /// processes starting together apply them once: the second waits, then finds them applied. `prepare` runs after
    /// the lock, before the version table is read (creating or checking the schema). Shared by the PostgreSQL stores.
    package func applyMigrations(
        _ migrations: [[String]], versionTable: String, lockKey: Int64, kind: String, logger: Logger,
        prepare: (PostgresConnection) async throws -> Void = { _ in }
    ) async throws {
        try await query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
        try await prepare(self)
        try await query(PostgresQuery(unsafeSQL: """
            CREATE TABLE IF NOT EXISTS \(versionTable) (
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """), logger: logger)
        var applied: Set<Int> = []
        for try await version in try await query(PostgresQuery(unsafeSQL: "SELECT version FROM \(versionTable)"), logger: logger)
            .decode(Int.self)
        {
            applied.insert(version)
        }
        for (index, statements) in migrations.enumerated() where !applied.contains(index + 1) {
            for statement in statements {
                try await query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await query("INSERT INTO \(unescaped: versionTable) (version) VALUES (\(index + 1))", logger: logger)
            logger.info("applied \(kind) migration", metadata: ["version": "\(index + 1)"])
        }
    }
}

extension PSQLError {
    /// The server's message and SQLSTATE, or the error code when the server sent none.
    package var serverDescription: String {
        serverInfo?[.message].map { "\($0) (\(serverInfo?[.sqlState] ?? ""))" } ?? "\(code)"
    }
}
