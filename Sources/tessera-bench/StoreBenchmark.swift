import ArgumentParser
import Dispatch
import Foundation
import PassStore
import SQLiteStore
import Synchronization

/// The store calls behind the device endpoints, timed in process on a seeded SQLite file: what a request costs before
/// HTTP. Run `tessera-bench seed --sqlite PATH` first.
struct StoreBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Store calls behind the device endpoints per second (total over --tasks), on a seeded SQLite file."
    )

    @Option(help: "The seeded SQLite file (from `tessera-bench seed`).")
    var sqlite: String

    @Option(help: "Calls per measurement.")
    var calls: Int = 50_000

    @Option(help: "Concurrent tasks making the calls (the rate is their total).")
    var tasks: Int = 1

    @Option(help: "The store's maximum number of reader connections.")
    var readers: Int = 8

    @Option(help: "How many distinct passes the lookups pick from (the download load test uses 1,000).")
    var passes: Int = 100_000

    @Flag(help: "Also time registrations of new devices (they are written to the file: use a copy).")
    var registrations = false

    @Option(help: "Bytes of the file the writer memory-maps (PRAGMA mmap_size).")
    var mmap: Int = 256 << 20

    @Option(help: "Bytes of the file each reader connection memory-maps (the store's default: none).")
    var readerMmap: Int = 0

    func run() throws {
        let hot = max(1, passes), path = sqlite, calls = calls, tasks = max(1, tasks), readers = readers, mmap = mmap,
            readerMmap = readerMmap, registrations = registrations
        try runBlocking {
            let store = try SQLiteStore(configuration: .init(
                path: path, maximumReaderCount: readers, memoryMapSize: mmap, readerMemoryMapSize: readerMmap))
            print("\(tasks) concurrent task(s), \(readers) reader connection(s), \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
            print("| store call (SQLite, 100,000 passes, 1,000,000 registrations) | per second | µs each |")
            print("| --- | ---: | ---: |")
            try await measure(tasks, "pass by serial number (device fetch, authentication)", calls) { index in
                _ = try await store.pass(passTypeIdentifier: BenchData.passTypeIdentifier, serialNumber: BenchData.serial(index % hot))
            }
            try await measure(tasks, "serial numbers of a device (list endpoint)", calls) { index in
                _ = try await store.serialNumbers(deviceLibraryIdentifier: BenchData.device(index % 250_000),
                                                  passTypeIdentifier: BenchData.passTypeIdentifier, updatedSince: nil)
            }
            try await measure(tasks, "serial numbers of a device since a tag (nothing new)", calls) { index in
                _ = try await store.serialNumbers(deviceLibraryIdentifier: BenchData.device(index % 250_000),
                                                  passTypeIdentifier: BenchData.passTypeIdentifier, updatedSince: 100_000)
            }
            guard registrations else { return }
            let run = UInt32.random(in: 0..<UInt32.max)
            let counter = NameCounter()
            try await measure(tasks, "registration of a new device (one write transaction; writes to the file)", calls) {
                index in
                _ = try await store.register(
                    deviceLibraryIdentifier: "bench\(run)x\(counter.next())", pushToken: BenchData.pushToken(index),
                    passTypeIdentifier: BenchData.passTypeIdentifier, serialNumber: BenchData.serial(index % 100_000),
                    now: Date())
            }
        }
    }

    private func measure(
        _ tasks: Int, _ label: String, _ calls: Int, _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        for index in 0..<1000 { try await body(index) }
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var generator = SystemRandomNumberGenerator()
                    for _ in 0..<(calls / tasks) { try await body(Int.random(in: 0..<1_000_000, using: &generator)) }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let done = Double(calls / tasks * tasks)
        print(String(format: "| %@ | %.0f | %.1f |", label, done / seconds, seconds / done * 1e6 * Double(tasks)))
    }
}

/// A thread-safe counter for unique names across tasks.
final class NameCounter: Sendable {
    private let value = Mutex(0)

    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
