public import Foundation
public import Logging
public import PassStore
public import ServiceLifecycle

/// Deletes events older than the retention period, every `interval`, in bounded batches (each its own transaction,
/// so a large backlog never holds the store's writer for long). Every server process runs one; deleting what
/// another already deleted is harmless.
public struct EventRetention: Service, Sendable {
    /// How long events are kept and how often old ones are looked for.
    public struct Configuration: Sendable {
        /// Days events are kept (`--event-retention-days`, default 30).
        public var days: Int
        /// How often old events are deleted.
        public var interval: Duration
        /// Events deleted per transaction.
        public var batchSize: Int

        /// Creates a configuration.
        public init(days: Int = 30, interval: Duration = .seconds(3_600), batchSize: Int = 10_000) {
            self.days = days
            self.interval = interval
            self.batchSize = batchSize
        }
    }

    private let store: any EventStore
    private let configuration: Configuration
    private let logger: Logger
    private let now: @Sendable () -> Date

    /// Creates the service.
    public init(store: any EventStore, configuration: Configuration, logger: Logger,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.now = now
    }

    public func run() async throws {
        // Stops at the server's graceful shutdown, between batches or in its sleep.
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await prune()
                } catch is CancellationError {
                    return
                } catch where Task.isCancelled {
                    // Stopped mid-statement (the store reports it as unavailable): the shutdown, not a failure.
                    return
                } catch {
                    logger.warning("event retention: could not delete old events", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: configuration.interval)
            }
        }
    }

    /// Deletes every event older than the retention period.
    /// - Returns: How many were deleted.
    @discardableResult
    public func prune() async throws -> Int {
        let cutoff = now().addingTimeInterval(-Double(configuration.days) * 86_400)
        var total = 0
        while !Task.isCancelled {
            let deleted = try await store.deleteEvents(createdBefore: cutoff, limit: configuration.batchSize)
            total += deleted
            if deleted < configuration.batchSize { break }
        }
        if total > 0 { logger.info("event retention: deleted old events", metadata: ["count": "\(total)"]) }
        return total
    }
}
