public import Logging
public import PostgresNIO

extension PostgresConnection {
    /// Applies the migrations not yet recorded in `versionTable` (version = index + 1), their statements and version
    /// rows inside the caller's transaction, sent together as one PL/pgSQL block. Takes a transaction-level advisory
    /// lock first, so processes starting together apply them once: the second waits, then finds them applied. The
    /// lock's key is `lockKey` mixed with the connection's `search_path`: stores in different schemas of one database
    /// migrate side by side instead of queueing behind each other (one slow migration used to hold up every schema's
    /// start-up), while connections with the default search path share one key per database as before. `prepare` runs
    /// after the lock, before the version table is read (creating or checking the schema). Shared by the PostgreSQL
    /// stores.
    public func applyMigrations(
        _ migrations: [[String]], versionTable: String, lockKey: Int64, kind: String, logger: Logger,
        prepare: (PostgresConnection) async throws -> Void = { _ in }
    ) async throws {
        try await query(
            "SELECT pg_advisory_xact_lock(hashtextextended(current_setting('search_path'), \(lockKey)))", logger: logger
        )
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
        // A version this release does not know was applied by a newer one: its tables and columns are not what this
        // release reads and writes (a column dropped, a constraint added), so it must not start on them.
        let newer = applied.filter { $0 > migrations.count }.sorted()
        if !newer.isEmpty {
            throw SchemaTooNew(kind: kind, table: versionTable, newer: newer.map(String.init), known: "\(migrations.count)")
        }
        let pending = migrations.enumerated().filter { !applied.contains($0.offset + 1) }
        guard !pending.isEmpty else { return }
        // Said before it runs: on a large store a migration that builds an index reads every row, with the server
        // not yet listening, and the tables it changes locked to every other process until it commits.
        logger.notice("applying \(kind) migrations", metadata: [
            "versions": "\(pending.map { String($0.offset + 1) }.joined(separator: ", "))",
        ])
        // Every pending migration and its version row in one anonymous PL/pgSQL block: one round trip instead of one
        // per statement, so a store migrating on a busy machine holds its lock for as little time as the server needs.
        let tag = "$tessera_migration$"
        var block = "DO \(tag) BEGIN\n"
        for (index, statements) in pending {
            for statement in statements {
                precondition(!statement.contains(tag), "a migration statement contains \(tag)")
                block += statement + ";\n"
            }
            block += "INSERT INTO \(versionTable) (version) VALUES (\(index + 1));\n"
        }
        block += "END \(tag)"
        try await query(PostgresQuery(unsafeSQL: block), logger: logger)
        for (index, _) in pending {
            logger.info("applied \(kind) migration", metadata: ["version": "\(index + 1)"])
        }
    }
}

/// A store whose schema a newer release migrated: this release refuses to start on it.
public struct SchemaTooNew: Error, CustomStringConvertible {
    /// What store (`store`, `checkout`).
    public var kind: String
    /// Where its versions are recorded (a table, or the file).
    public var table: String
    /// The versions this release does not know.
    public var newer: [String]
    /// The last version this release knows.
    public var known: String

    public init(kind: String, table: String, newer: [String], known: String) {
        self.kind = kind
        self.table = table
        self.newer = newer
        self.known = known
    }

    public var description: String {
        "the \(kind) schema was migrated by a newer release of tessera (\(table) records \(newer.joined(separator: ", ")); "
            + "this release knows up to \(known)): run that release or a later one, as an older one must not write to it"
    }
}

extension PSQLError {
    /// The server's message and SQLSTATE, or the error code when the server sent none.
    public var serverDescription: String {
        serverInfo?[.message].map { "\($0) (\(serverInfo?[.sqlState] ?? ""))" } ?? "\(code)"
    }
}
