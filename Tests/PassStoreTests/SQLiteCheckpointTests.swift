import Foundation
import GRDB
import PassStore
import SQLiteStore
import Testing

/// `tessera serve` copies the SQLite log into the file beside the writer (`checkpointsInBackground` and
/// `runCheckpoints`), so no commit waits for a checkpoint.
@Suite("SQLiteStore: checkpoints beside the writer")
struct SQLiteCheckpointTests {
    private static func logSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    /// 100 transactions of 20 new passes each, with short pauses, as a server's writes come.
    private static func write(_ store: SQLiteStore, prefix: String) async throws {
        for round in 0..<100 {
            try await Fixtures.insert((0..<20).map { "\(prefix)\(round)-\($0)" }, into: store)
            if round % 5 == 4 { try await Task.sleep(for: .milliseconds(20)) }
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
        try await Self.write(checked, prefix: "B")
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
