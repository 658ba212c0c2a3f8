import Hummingbird
import NIOCore
import TesseraTestSupport

extension EventLoopExecutor {
    /// Serves a stand-in's application on `127.0.0.1` on a thread and event loop of its own for as long as `body`
    /// runs: its channels live on a new loop and its handlers run their jobs there, not on Swift's cooperative
    /// threads, so the server it answers (in this process or another) never waits for it behind the suite's
    /// synchronous tests. `body` runs where the caller runs. The loop is stopped when `body` returns.
    /// - Parameters:
    ///   - application: Builds the application given the loop (pass `.shared(executor.eventLoopGroup)` as its
    ///     `eventLoopGroupProvider`; its timer can pace answers) and the callback that reports its port (its
    ///     `onServerRunning`).
    ///   - body: The test, given the port the stand-in listens on.
    /// - Returns: What `body` returns.
    static func serve<App: ApplicationProtocol, T: Sendable>(
        _ application: (
            _ executor: EventLoopExecutor, _ onServerRunning: @escaping @Sendable (any Channel) async -> Void
        ) throws -> App,
        _ body: (_ port: Int) async throws -> T
    ) async throws -> T {
        let executor = EventLoopExecutor()
        let bound = executor.loop.makePromise(of: Int.self)
        let app: App
        do {
            app = try application(executor) { channel in bound.succeed(channel.localAddress?.port ?? 0) }
        } catch {
            bound.fail(error)
            try await executor.shutdown()
            throw error
        }
        let result: Result<T, any Error> = await withTaskGroup(of: Void.self) { group in
            group.addTask(executorPreference: executor) {
                do {
                    try await app.runService(gracefulShutdownSignals: [])
                    bound.fail(CancellationError())  // ignored once the port was reported
                } catch {
                    bound.fail(error)
                }
            }
            let result: Result<T, any Error>
            do {
                let port = try await bound.futureResult.get()
                result = .success(try await body(port))
            } catch {
                result = .failure(error)
            }
            group.cancelAll()
            await group.waitForAll()
            return result
        }
        try await executor.shutdown()
        return try result.get()
    }
}
