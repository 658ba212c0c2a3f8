import Foundation
import GRDB
import PassStore
import SQLiteStore
import Synchronization
import Testing
import TesseraTestSupport

/// `tessera serve` copies the SQLite log into the file beside the writer (`checkpointsInBackground` and
/// `runCheckpoints`), so no commit waits for a checkpoint.
@Suite("SQLiteStore: checkpoints beside the writer")
struct SQLiteCheckpointTests {
    private static func logSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    /// Whether every frame of the log has been copied into the file, as the log's shared index says (SQLite's
    /// documented wal-index: `mxFrame` at byte 16 of the header, `nBackfill` at byte 96, native order).
    private static func caughtUp(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path + "-shm") else { return false }
        defer { try? handle.close() }
        guard let bytes = try? handle.read(upToCount: 100), bytes.count == 100 else { return false }
        let word = { (offset: Int) in bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) } }
        return word(16) == word(96)
    }

    /// 100 transactions of 20 new passes each, with short pauses, as a server's writes come. With `checkpointed`, a
    /// pause lasts until the checkpoints have caught up (at most a few seconds): on a loaded machine the task that
    /// runs them may wait its turn longer than a pause of a quiet one, and the log's length would measure that wait.
    private static func write(_ store: SQLiteStore, prefix: String, checkpointed path: String? = nil) async throws {
        for round in 0..<100 {
            try await Fixtures.insert((0..<20).map { "\(prefix)\(round)-\($0)" }, into: store)
            guard round % 5 == 4 else { continue }
            try await Task.sleep(for: .milliseconds(20))
            guard let path else { continue }
            let deadline = ContinuousClock.now + .seconds(TestTime.seconds(2))
            while !caughtUp(path), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test("commits leave the log to runCheckpoints, which keeps it short; every write stays readable")
    func background() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let alonePath = folder.appendingPathComponent("alone.sqlite").path
        let checkedPath = folder.appendingPathComponent("checked.sqlite").path

        let standard = try SQLiteStore(path: folder.appendingPathComponent("standard.sqlite").path)
        #expect(try await standard.pool.read { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") } == 1000)

        // With no checkpoints at all, the log only grows: what runCheckpoints is there for.
        let alone = try SQLiteStore(configuration: .init(path: alonePath, checkpointsInBackground: true))
        try await alone.migrate()
        #expect(try await alone.pool.write { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") } == 0)
        try await Self.write(alone, prefix: "A")
        let grown = Self.logSize(alonePath)

        let checked = try SQLiteStore(configuration: .init(path: checkedPath, checkpointsInBackground: true))
        try await checked.migrate()
        let checkpoints = Task { try await checked.runCheckpoints(every: .milliseconds(5)) }
        try await Self.write(checked, prefix: "B", checkpointed: checkedPath)
        let kept = Self.logSize(checkedPath)
        checkpoints.cancel()
        await #expect(throws: CancellationError.self) { try await checkpoints.value }

        #expect(grown > 0 && kept < grown / 2, "log without checkpoints \(grown) bytes, with them \(kept) bytes")
        for serial in ["B0-0", "B57-3", "B99-19"] {
            #expect(try await checked.pass(passTypeIdentifier: Fixtures.passType, serialNumber: serial) != nil)
        }
        // The checkpoints copied the log into the file: a copy of the file alone, without its log, holds the
        // earlier writes.
        let copyPath = folder.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: checkedPath, toPath: copyPath)
        let copy = try SQLiteStore(path: copyPath)
        for serial in ["B0-0", "B57-3"] {
            #expect(try await copy.pass(passTypeIdentifier: Fixtures.passType, serialNumber: serial) != nil)
        }
    }

    /// Writes passes one transaction each while two tasks read, with checkpoints every 5 ms (none when
    /// `restartFrames` is nil); returns the largest the log's file got, in bytes.
    private static func logUnderLoad(_ path: String, restartFrames: Int?, prefix: String) async throws -> Int {
        let store = try SQLiteStore(configuration: .init(path: path, checkpointsInBackground: true))
        try await store.migrate()
        try await Fixtures.insert(["\(prefix)-first"], into: store)
        let checkpoints = Task {
            guard let restartFrames else { return }
            try await store.runCheckpoints(every: .milliseconds(5), restartFrames: restartFrames)
        }
        // Readers on threads of their own (the store's reads run on the calling thread: in tasks they would hold
        // the cooperative pool), each a connection reading one row over and over.
        let stop = Mutex(false)
        var config = GRDB.Configuration()
        config.readonly = true
        let readers = try (0..<2).map { _ in
            let connection = try DatabaseQueue(path: path, configuration: config)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                while !stop.withLock({ $0 }) {
                    _ = try? connection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM passes WHERE rowid < 10") }
                }
                done.signal()
            }
            return done
        }
        var largest = 0
        for round in 0..<150 {
            try await Fixtures.insert((0..<20).map { "\(prefix)\(round)-\($0)" }, into: store)
            largest = max(largest, logSize(path))
        }
        stop.withLock { $0 = true }
        for reader in readers { reader.wait() }
        checkpoints.cancel()
        _ = await checkpoints.result
        for serial in ["\(prefix)0-0", "\(prefix)77-7", "\(prefix)149-19"] {
            #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: serial) != nil)
        }
        return largest
    }

    @Test("under steady writes and reads the log is taken back to its start, so its file stays short")
    func restartUnderLoad() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // With no checkpoint at all the log is never written from its start again: its file then holds every page
        // the writes put in it, the measure of the work (the same on every machine).
        let written = try await Self.logUnderLoad(folder.appendingPathComponent("unchecked.sqlite").path,
                                                  restartFrames: nil, prefix: "U")
        let kept = try await Self.logUnderLoad(folder.appendingPathComponent("restarted.sqlite").path,
                                               restartFrames: 200, prefix: "R")
        // The writes put 44,000 pages of 4,096 bytes and a 24-byte header in the log. Passive rounds alone (what
        // runCheckpoints did before it took the log back) kept 22,000 of them on a quiet machine: commits land while a
        // round copies, so the log is rarely written from its start again. Taking it back at 200 pages keeps the file
        // to a small part: measured at most 1,580 pages on a quiet machine and 3,640 beside six busy loops on two
        // cores, whose checkpoint task waits for the processor (a twelfth of the pages written).
        #expect(written > 40_000 * 4_120, "the unchecked log holds only \(written) bytes")
        #expect(kept < written / 6, "log with restarts past 200 pages: \(kept) bytes, of \(written) written")
    }

    @Test("a reader holding its snapshot keeps the log from its start without holding up the writer, which goes on")
    func restartWaitsForNoReader() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let store = try SQLiteStore(configuration: .init(path: path, checkpointsInBackground: true))
        try await store.migrate()
        try await Fixtures.insert((0..<100).map { "H\($0)" }, into: store)
        let checkpoints = Task { try await store.runCheckpoints(every: .milliseconds(5), restartFrames: 20) }
        // A long read (an export) on a connection of its own, holding one snapshot until the writes below are done,
        // or at most 4.5 s: less than the store's busy timeout (5 s), so a restart that waited for this reader would
        // hold the writer until the reader lets go, and the writes could not all land first.
        var config = GRDB.Configuration()
        config.readonly = true
        let export = try DatabaseQueue(path: path, configuration: config)
        // On a thread of its own: a blocked task would hold one of the cooperative pool's few threads.
        let state = Mutex((holding: false, writesDone: false))
        let reading = Task {
            try await withCheckedThrowingContinuation { (result: CheckedContinuation<Bool, any Error>) in
                Thread.detachNewThread {
                    result.resume(with: Result {
                        try export.read { db -> Bool in
                            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM passes")
                            state.withLock { $0.holding = true }
                            let deadline = ContinuousClock.now + .milliseconds(4_500)
                            while !state.withLock({ $0.writesDone }), ContinuousClock.now < deadline {
                                Thread.sleep(forTimeInterval: 0.005)
                            }
                            return state.withLock { $0.writesDone }
                        }
                    })
                }
            }
        }
        while !state.withLock({ $0.holding }) { try await Task.sleep(for: .milliseconds(5)) }
        // Writes while the reader holds its snapshot (restarts are due at every round, past 20 pages): none waits
        // for the reader (a restart gives up after 20 ms), so all of them land while it still holds it. A measure of
        // order, not of time: on a loaded machine one write beside the checkpoints may take most of a second.
        for index in 0..<20 {
            try await Fixtures.insert(["W\(index)"], into: store)
            try await Task.sleep(for: .milliseconds(10))
        }
        state.withLock { $0.writesDone = true }
        let heldThroughWrites = try await reading.value
        checkpoints.cancel()
        _ = await checkpoints.result
        #expect(heldThroughWrites, "the writes waited for the long reader to let go of its snapshot")
        #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "W19") != nil)
    }

    @Test("cancelled in the middle of a checkpoint, runCheckpoints ends with CancellationError, not a failure")
    func cancelledMidCheckpoint() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("store.sqlite").path,
                                                         checkpointsInBackground: true))
        try await store.migrate()
        // Without a pause between rounds, nearly all of the time is spent in the checkpoint call, where a graceful
        // shutdown's cancellation lands: the server must see a stop, not log a failed checkpoint.
        for round in 0..<30 {
            let checkpoints = Task { try await store.runCheckpoints(every: .zero) }
            try await Task.sleep(for: .milliseconds(1 + round % 4))
            checkpoints.cancel()
            do {
                try await checkpoints.value
                Issue.record("runCheckpoints returned without an error")
            } catch is CancellationError {
            } catch {
                Issue.record("round \(round): \(error)")
            }
        }
    }
}
