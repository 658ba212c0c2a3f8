import GRDB
import GRDBSQLite
import PassStore

extension SQLiteStore {
    /// Copies the write-ahead log into the database file until the task is cancelled, on a connection of its own, so
    /// no commit waits for it (with ``Configuration/checkpointsInBackground``), and takes the log back to its start
    /// when it has grown long.
    ///
    /// Each round is a passive checkpoint: it copies what no reader still needs, waiting for no reader and no writer.
    /// Registrations change random pages of large indexes: with SQLite's automatic checkpoint, one commit in a few
    /// hundred copied a thousand pages and synced the file while every other write queued behind it.
    ///
    /// A passive checkpoint does not take the log back to its start while writes keep coming: the log goes back only
    /// when a transaction begins with every page of it copied and no reader using it, and under steady writes a commit
    /// lands while the copy runs. The log then grows without end (1.3 GB in 12 s of device registrations at 64
    /// connections), each commit extends the file (the file system allocates and zeroes every new block: 15 % of the
    /// server's CPU in that test) and every read looks its pages up in a longer index. So once a round leaves the log
    /// at `restartFrames` pages or more, it is taken back to its start (``restartLog(copying:)``) and written again
    /// over blocks the file already has.
    /// - Parameters:
    ///   - interval: The pause between two rounds.
    ///   - restartFrames: The log's length, in pages, from which it is taken back to its start.
    /// - Throws: `CancellationError` when cancelled; ``PassStore/PassStoreError/unavailable(_:)`` when the file cannot
    ///   be opened or a checkpoint fails (the caller decides whether to try again).
    public func runCheckpoints(every interval: Duration = .milliseconds(200), restartFrames: Int = 131_072)
        async throws
    {
        var config = GRDB.Configuration()
        config.label = "tessera.store.checkpoints"
        config.busyMode = .timeout(5)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: pool.path, configuration: config)
        } catch {
            throw PassStoreError.unavailable("cannot open \(pool.path) for checkpoints: \(error)")
        }
        // The log's length at which it is next taken back: after a restart that readers held off, a quarter more.
        var restartAt = max(1, restartFrames)
        while true {
            try Task.checkCancellation()
            do {
                let log = try await queue.writeWithoutTransaction { try $0.checkpoint(.passive) }
                if log.walFrameCount < restartFrames {
                    restartAt = max(1, restartFrames)
                } else if log.walFrameCount >= restartAt {
                    // A log just taken back keeps its length until the next commit writes it from the start.
                    let restarted = try await restartLog(copying: queue)
                    restartAt = restarted ? log.walFrameCount + 1 : log.walFrameCount + max(1, restartFrames / 4)
                }
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

    /// Takes the log back to its start with as short a turn of the writer as can be.
    ///
    /// Only the writer can finish the job: the last pages must be copied, and the file synced, with no commit in
    /// between (SQLite's `RESTART` checkpoint), and then readers still using the log waited for. A passive round that
    /// does not copy the whole log syncs only the log, so the file's copied pages wait in the page cache, and the
    /// sync that finishes the copy has them all to write. So first, beside the writer, rounds of syncing both files
    /// and copying what was written meanwhile, each shorter than the one before, until one takes a few
    /// milliseconds; then the writer's turn, with what the last round left to copy and sync. A reader that holds a
    /// snapshot longer than 20 ms (an export) makes the restart give up rather than hold the writer.
    /// - Returns: Whether the log was taken back (`false`: a reader still used it).
    private func restartLog(copying queue: DatabaseQueue) async throws -> Bool {
        let clock = ContinuousClock()
        for _ in 0..<6 {
            let start = clock.now
            try await queue.writeWithoutTransaction { db in
                try Self.sync(db, SQLITE_FCNTL_JOURNAL_POINTER)
                try Self.sync(db, SQLITE_FCNTL_FILE_POINTER)
                _ = try db.checkpoint(.passive)
            }
            if clock.now - start < .milliseconds(10) { break }
        }
        return try await pool.writeWithoutTransaction { db in
            // The writer's own wait for a lock is long (the store's busy timeout), meant for other processes' writes;
            // for readers here it is 20 ms, then put back.
            let busyMilliseconds: Int32
            if case let .timeout(seconds) = db.configuration.busyMode {
                busyMilliseconds = Int32(clamping: Int((seconds * 1000).rounded()))
            } else {
                busyMilliseconds = 0
            }
            sqlite3_busy_timeout(db.sqliteConnection, 20)
            defer { sqlite3_busy_timeout(db.sqliteConnection, busyMilliseconds) }
            do {
                try db.checkpoint(.restart)
                return true
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                return false
            }
        }
    }

    /// Flushes one of the files SQLite has open for a connection (the database file, or its log) to the disk, through
    /// SQLite's own handle: a descriptor of our own would, once closed, drop the POSIX locks SQLite holds on the file.
    /// - Parameter fileControl: `SQLITE_FCNTL_FILE_POINTER` (the database file) or `SQLITE_FCNTL_JOURNAL_POINTER` (the
    ///   log, when the connection has it open).
    private static func sync(_ db: Database, _ fileControl: Int32) throws {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(db.sqliteConnection, "main", fileControl, &file) == SQLITE_OK, let file,
              let sync = file.pointee.pMethods?.pointee.xSync
        else { return }
        let code = sync(file, SQLITE_SYNC_NORMAL)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
    }
}
