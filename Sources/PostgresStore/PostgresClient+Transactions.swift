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

extension PSQLError {
    /// The server's message and SQLSTATE, or the error code when the server sent none.
    package var serverDescription: String {
        serverInfo?[.message].map { "\($0) (\(serverInfo?[.sqlState] ?? ""))" } ?? "\(code)"
    }
}
