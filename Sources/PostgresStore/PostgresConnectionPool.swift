public import Logging
import Metrics
public import PostgresNIO
import Synchronization

/// The connections to one PostgreSQL database, shared by every store that keeps its tables there (the pass store,
/// the checkout store), with how long requests wait for a connection and how many are busy exported as metrics.
///
/// The pool has a fixed size and sends no keep-alive queries: postgres-nio starts a keep-alive timer (and, above its
/// minimum size, an idle timer) each time a connection goes back to the pool and cancels them on the next lease, a
/// task group, two tasks and a Dispatch timer per query, which cost a device request about a third of its CPU time.
/// A connection the server closed is noticed by the query that next uses it (which fails, and the pool opens a
/// new one).
///
/// Metrics (swift-metrics, so `/metrics` when the process bootstrapped Prometheus):
/// - `tessera_postgres_pool_wait_seconds`: time from asking for a connection to getting one (a timer);
/// - `tessera_postgres_pool_connections` with `state` = `size`, `in_use`: the pool's size and the connections leased;
/// - `tessera_postgres_pool_waiting`: requests waiting for a connection.
public final class PostgresConnectionPool: Sendable {
    /// The postgres-nio client holding the connections; ``run()`` runs it.
    let client: PostgresClient
    /// How many connections the pool keeps open.
    public let size: Int
    let logger: Logger
    private let waitTimer: Metrics.Timer
    private let inUseGauge: Gauge
    private let waitingGauge: Gauge
    private let inUse = Atomic<Int>(0)
    private let waiting = Atomic<Int>(0)

    init(client: PostgresClient, size: Int, logger: Logger) {
        self.client = client
        self.size = size
        self.logger = logger
        waitTimer = Metrics.Timer(label: "tessera_postgres_pool_wait_seconds", preferredDisplayUnit: .seconds)
        inUseGauge = Gauge(label: "tessera_postgres_pool_connections", dimensions: [("state", "in_use")])
        waitingGauge = Gauge(label: "tessera_postgres_pool_waiting")
        Gauge(label: "tessera_postgres_pool_connections", dimensions: [("state", "size")]).record(size)
        inUseGauge.record(0)
        waitingGauge.record(0)
    }

    /// Runs the connections until the task is cancelled.
    func run() async {
        await client.run()
    }

    /// Leases a connection for `body` (which must not keep it), recording the wait.
    public func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let asked = ContinuousClock.now
        waitingGauge.record(waiting.add(1, ordering: .relaxed).newValue)
        var leased = false
        defer {
            if !leased { waitingGauge.record(waiting.subtract(1, ordering: .relaxed).newValue) }
        }
        return try await client.withConnection { connection in
            leased = true
            let waited = ContinuousClock.now - asked
            waitTimer.recordNanoseconds(waited.components.seconds * 1_000_000_000 + waited.components.attoseconds / 1_000_000_000)
            waitingGauge.record(waiting.subtract(1, ordering: .relaxed).newValue)
            inUseGauge.record(inUse.add(1, ordering: .relaxed).newValue)
            defer { inUseGauge.record(inUse.subtract(1, ordering: .relaxed).newValue) }
            return try await body(connection)
        }
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back when it throws.
    /// - Parameters:
    ///   - mapError: Turns a failure into the caller's error type (the error `body` threw, or the database's).
    ///   - body: The statements; must not keep the connection.
    public func transaction<T: Sendable>(
        mapError: (any Error) -> any Error, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await withConnection { connection in
                try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
            }
        } catch let error as PostgresTransactionError {
            throw mapError(error.closureError ?? error.beginError ?? error.commitError ?? error)
        } catch {
            throw mapError(error)
        }
    }

    /// Runs one statement outside a transaction and collects its rows.
    /// - Parameters:
    ///   - query: The statement.
    ///   - mapError: Turns a failure into the caller's error type.
    public func rows(_ query: PostgresQuery, mapError: (any Error) -> any Error) async throws -> [PostgresRow] {
        do {
            return try await withConnection { connection in try await connection.query(query, logger: logger).collect() }
        } catch {
            throw mapError(error)
        }
    }

    /// Runs a prepared statement (prepared once per connection) outside a transaction and collects its rows.
    /// - Parameters:
    ///   - statement: The statement and its bindings.
    ///   - mapError: Turns a failure into the caller's error type.
    public func rows<Statement: PostgresPreparedStatement>(
        _ statement: Statement, mapError: (any Error) -> any Error
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        do {
            return try await withConnection { connection in
                var rows: [Statement.Row] = []
                for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                return rows
            }
        } catch {
            throw mapError(error)
        }
    }
}
