import AsyncHTTPClient
public import ServiceLifecycle

extension APNsClient: Service {
    /// Keeps the client alive until graceful shutdown (or cancellation), then shuts its HTTP client down.
    /// - Throws: Errors from shutting the HTTP client down.
    public func run() async throws {
        // Returns on graceful shutdown, throws CancellationError when cancelled: either way, close.
        try? await gracefulShutdown()
        try await shutdown()
    }

    /// Closes the connections to APNs. Later sends throw ``APNsError/Code/clientShutDown``. Calling it twice is harmless.
    /// - Throws: Errors from closing the connection pool.
    public func shutdown() async throws {
        do {
            try await httpClient.shutdown()
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            return
        }
    }
}
