import GRDB
import PassStore

extension SQLiteStore {
    /// Copies the write-ahead log into the database file until the task is cancelled, on a connection of its own, so
    /// no commit waits for it (with ``Configuration/checkpointsInBackground``).
    ///
    /// Each round is a passive checkpoint: it copies what no reader still needs, waiting for no reader and no writer.
    /// Once everything is copied, the next transaction writes the log from its start again, so the log stays about as
    /// large as what is written between two rounds. Registrations change random pages of large indexes: with SQLite's
    /// automatic checkpoint, one commit in a few hundred copied a thousand pages and synced the file while every other
    /// write queued behind it.
    /// - Parameter interval: The pause between two rounds.
    /// - Throws: `CancellationError` when cancelled; ``PassStore/PassStoreError/unavailable(_:)`` when the file cannot
    ///   be opened or a checkpoint fails (the caller decides whether to try again).
    public func runCheckpoints(every interval: Duration = .milliseconds(200)) async throws {
        var config = GRDB.Configuration()
        config.label = "tessera.store.checkpoints"
        config.busyMode = .timeout(5)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: pool.path, configuration: config)
        } catch {
            throw PassStoreError.unavailable("cannot open \(pool.path) for checkpoints: \(error)")
        }
        while true {
            try Task.checkCancellation()
            do {
                _ = try await queue.writeWithoutTransaction { try $0.checkpoint(.passive) }
            } catch {
                // GRDB ends a cancelled task's access with CancellationError or by interrupting SQLite (error 9):
                // either is a stop, not a failed checkpoint.
                if Task.isCancelled { throw CancellationError() }
                // Another connection checkpointing at the same moment: the next round copies what is left.
                if let busy = error as? DatabaseError, busy.resultCode == .SQLITE_BUSY || busy.resultCode == .SQLITE_LOCKED {
                    try await Task.sleep(for: interval)
                    continue
                }
                throw PassStoreError.unavailable("checkpoint of \(pool.path) failed: \(error)")
            }
            try await Task.sleep(for: interval)
        }
    }
}
