import Foundation
import Synchronization
@testable import SQLiteStore
import Testing
import TesseraTestSupport

/// `tessera serve` runs the store's reads on its event loops. A read that finds every read connection busy must wait
/// suspended: blocking its thread would stop every other connection that loop serves until a connection came back.
@Suite("SQLiteStore on an event loop")
struct SQLiteEventLoopTests {
    @Test("a read waiting for the only read connection leaves its event loop free for other work")
    func waitingReadLeavesLoopFree() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("store.sqlite").path,
                                                         maximumReaderCount: 1))
        try await store.migrate()
        let server = EventLoopExecutor()
        let elsewhere = EventLoopExecutor()

        // Another loop's task holds the only read connection until told to give it back.
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = elsewhere.task {
            try await store.read { _ in
                holding.signal()
                release.wait()
                return 1
            }
        }
        // Whatever happens below, the connection comes back, so a failing run ends instead of hanging.
        var released = false
        defer { if !released { release.signal() } }
        #expect(try await offCooperativePool { holding.wait(timeout: .now() + 60) == .success })

        // A second read on the server loop has to wait for that connection.
        let reading = DispatchSemaphore(value: 0)
        let finished = Atomic<Bool>(false)
        let reader = server.task {
            reading.signal()
            let value = try await store.read { _ in 2 }
            finished.store(true, ordering: .sequentiallyConsistent)
            return value
        }
        #expect(try await offCooperativePool { reading.wait(timeout: .now() + 60) == .success })

        // While it waits, the loop still runs other work (a blocked loop runs nothing until the holder is done).
        let loopAnswered = try await server.answers(within: 10)
        let finishedEarly = finished.load(ordering: .sequentiallyConsistent)

        release.signal()
        released = true
        #expect(try await holder.value == 1)
        #expect(try await reader.value == 2)
        #expect(loopAnswered, "the event loop ran nothing while its read waited for a connection")
        #expect(!finishedEarly, "the second read did not wait for the only connection")
        try await server.shutdown()
        try await elsewhere.shutdown()
    }
}
