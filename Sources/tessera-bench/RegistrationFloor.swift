import ArgumentParser
import Dispatch
import Foundation
import GRDB
import NIOCore
import NIOPosix
import PassStore
import SQLiteStore

/// `tessera-bench registration-floor`: what SQLite itself charges for the rows a new device's registration must
/// write, with none of the store's code around them, next to the store's own registration on the same file.
///
/// Per registration, in write transactions of `--batch` registrations on one connection: the pass row read (as the
/// store reads it before writing), the device row (and its push-token index), the registration row (and its index by
/// pass) and the `pass.registered` event (and its index by item), each by a prepared statement. Commits leave the log
/// alone and passive checkpoints copy it every 200 ms on a connection of their own, as `tessera serve` runs them. The
/// cost is the process's CPU time (user and system, from `getrusage`) per registration, so it includes the
/// checkpoints' work. Then the store's own registrations (`SQLiteStore.register`: the same rows, the analytics folded
/// at write, group commit) from `--tasks` concurrent tasks, alone and after a pass read on a reader connection (the
/// way the device endpoints checked the token before the writer did, and stores other than SQLite still do). What
/// HTTP adds is measured by `tessera-bench hello`'s registration route (scripts/bench-server.sh).
struct RegistrationFloorBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registration-floor",
        abstract: "SQLite's own CPU per new-device registration (plain SQL, no store code) and the store's, on a seeded file."
    )

    @Option(help: "A copy of a seeded SQLite file (from `tessera-bench seed`); registrations are written to it.")
    var sqlite: String

    @Option(help: "Registrations per measurement.")
    var calls: Int = 40_000

    @Option(parsing: .upToNextOption, help: "Registrations per write transaction, one measurement each.")
    var batch: [Int] = [1, 8, 32]

    @Option(parsing: .upToNextOption,
            help: "Concurrent tasks registering through the store (its registrations share transactions), one measurement each.")
    var tasks: [Int] = [1, 8, 64]

    @Flag(help: "Run the tasks on the event loops (NIO's event loop group as Swift Concurrency's global executor), as tessera serve does.")
    var eventLoopExecutor = false

    func run() throws {
        if eventLoopExecutor { NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() }
        let path = sqlite, calls = max(1_000, calls), batches = batch.map { max(1, $0) }, taskCounts = tasks.map { max(1, $0) }
        try runBlocking {
            let store = try SQLiteStore(configuration: .init(path: path, checkpointsInBackground: true))
            try await store.migrate()
            let checkpoints = Task { try await store.runCheckpoints() }
            defer { checkpoints.cancel() }
            let writer = try Self.writer(path)
            let run = UInt32.random(in: 0..<UInt32.max)
            print("| what | registrations/s | CPU µs per registration |")
            print("| --- | ---: | ---: |")
            for size in batches {
                let cost = try await Self.measure(calls) { first, count in
                    try await Self.plainRegistrations(writer, run: run, from: first, count: count, batch: size)
                }
                print(String(format: "| plain SQL, %d per transaction | %.0f | %.1f |", size, cost.rate, cost.cpu))
            }
            let counter = NameCounter()
            for readFirst in [false, true] {
                for tasks in taskCounts {
                    let cost = try await Self.measure(calls) { first, count in
                        try await Self.storeRegistrations(store, tasks: tasks, readFirst: readFirst, from: first,
                                                          count: count, name: { "floor\(run)s\(counter.next())" })
                    }
                    let what = readFirst
                        ? "the pass read for the token (a reader connection), then the store's registration"
                        : "the store's registration (SQLiteStore.register)"
                    print(String(format: "| %@, %d tasks | %.0f | %.1f |", what, tasks, cost.rate, cost.cpu))
                }
            }
        }
    }

    /// `count` new devices registering through the store from `tasks` concurrent tasks, each after reading the pass
    /// for its token as the device endpoints do when `readFirst`.
    private static func storeRegistrations(
        _ store: SQLiteStore, tasks: Int, readFirst: Bool, from first: Int, count: Int,
        name: @escaping @Sendable () -> String
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in stride(from: task, to: count, by: tasks) {
                        let number = first + index, serial = BenchData.serial(number % 100_000)
                        if readFirst {
                            _ = try await store.passForAuthentication(
                                passTypeIdentifier: BenchData.passTypeIdentifier, serialNumber: serial)
                        }
                        _ = try await store.register(
                            deviceLibraryIdentifier: name(), pushToken: BenchData.pushToken(number),
                            passTypeIdentifier: BenchData.passTypeIdentifier, serialNumber: serial, now: Date())
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The writing connection: the settings `tessera serve` gives its store's writer.
    private static func writer(_ path: String) throws -> DatabaseQueue {
        var config = GRDB.Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(5)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA mmap_size = \(256 << 20)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        return try DatabaseQueue(path: path, configuration: config)
    }

    /// `count` new devices, each registering for one pass, `batch` of them per transaction.
    /// Each transaction runs on the connection's own queue (GRDB's asynchronous write), as the store's batches do, so
    /// the checkpoints' task is never held up behind it.
    private static func plainRegistrations(
        _ queue: DatabaseQueue, run: UInt32, from first: Int, count: Int, batch: Int
    ) async throws {
        let name: @Sendable (Int) -> String = { "plain\(run)b\(batch)s\($0)" }
        var done = 0
        while done < count {
            let size = min(batch, count - done), start = first + done
            let events = (0..<size).map { index in
                WalletEventDraft.registered(.pass, typeIdentifier: BenchData.passTypeIdentifier,
                                            identifier: BenchData.serial((start + index) % 100_000),
                                            deviceLibraryIdentifier: name(start + index))
            }
            try await queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try Self.writeRows(db, start: start, size: size, events: events, name: name)
                    return .commit
                }
            }
            done += size
        }
    }

    /// The rows of `size` new devices' registrations, numbered from `start`.
    private static func writeRows(
        _ db: Database, start: Int, size: Int, events: [WalletEventDraft], name: (Int) -> String
    ) throws {
        let pass = try db.cachedStatement(sql: """
            SELECT authentication_token, template FROM passes WHERE pass_type_identifier = ? AND serial_number = ?
            """)
        let device = try db.cachedStatement(sql: """
            INSERT INTO devices (device_library_identifier, push_token, updated_at) VALUES (?, ?, ?)
            """)
        let registration = try db.cachedStatement(sql: """
            INSERT INTO registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
            VALUES (?, ?, ?, ?)
            """)
        let event = try db.cachedStatement(sql: """
            INSERT INTO events (type, created_at, type_identifier, identifier, device, data) VALUES (?, ?, ?, ?, ?, ?)
            """)
        let now = Date().timeIntervalSince1970
        for index in 0..<size {
            let number = start + index, serial = BenchData.serial(number % 100_000)
            let name = name(number)
            guard try Row.fetchOne(pass, arguments: [BenchData.passTypeIdentifier, serial]) != nil else {
                throw ValidationError("no pass \(serial) in the seeded file")
            }
            try device.execute(arguments: [name, BenchData.pushToken(number), now])
            try registration.execute(arguments: [name, BenchData.passTypeIdentifier, serial, now])
            let draft = events[index]
            try event.execute(arguments: [draft.type.rawValue, now, draft.typeIdentifier, draft.identifier,
                                          draft.device, draft.data])
        }
    }

    struct Cost {
        var rate: Double
        var cpu: Double
    }

    /// Runs `body` for 1,000 uncounted registrations, then for `calls`, and reports the rate and the process's CPU per call.
    private static func measure(_ calls: Int, _ body: (Int, Int) async throws -> Void) async throws -> Cost {
        try await body(0, 1_000)
        let (wall, cpu) = (DispatchTime.now().uptimeNanoseconds, processCPU())
        try await body(1_000, calls)
        return cost(calls, since: wall, cpu)
    }

    private static func cost(_ calls: Int, since wall: UInt64, _ cpu: Double) -> Cost {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9
        return Cost(rate: Double(calls) / seconds, cpu: (processCPU() - cpu) / Double(calls) * 1e6)
    }

    /// User and system CPU seconds of the whole process, every thread (the checkpoints' included).
    private static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
