import Logging
import ServiceLifecycle
import SQLiteStore

/// Copies the SQLite store's write-ahead log into its file beside the writer (``SQLiteStore/runCheckpoints(every:)``),
/// so no commit waits for a checkpoint. A failed round is logged and tried again a second later: while nothing copies
/// the log, it only grows.
struct SQLiteCheckpoints: Service {
    let store: SQLiteStore
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await store.runCheckpoints()
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("cannot copy the SQLite log into the file; trying again", metadata: ["error": "\(error)"])
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }
}
