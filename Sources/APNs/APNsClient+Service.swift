public import ServiceLifecycle

extension APNsClient: Service {
    /// Keeps the client alive until graceful shutdown (or cancellation), then closes its connection.
    public func run() async throws {
        // Returns on graceful shutdown, throws CancellationError when cancelled: either way, close.
        try? await gracefulShutdown()
        try await shutdown()
    }

    /// Closes the connections to APNs. Later sends throw ``APNsError/Code/clientShutDown``. Calling it twice is harmless.
    public func shutdown() async throws {
        for connection in connections { await connection.shutdown() }
    }
}
