import Foundation
import PassStore
import SQLiteStore
import Testing

@Suite("SQLiteStore")
struct SQLiteStoreTests {
    @Test("a new database, its write-ahead log and a folder made for it are readable by their owner only (the file holds tokens)")
    func privateFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("data/store.sqlite").path
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        _ = try await Fixtures.insert(["P1"], into: store)
        let mode = { (path: String) in
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue
        }
        #expect(mode(path) == 0o600)
        #expect(mode(path + "-wal") == 0o600)
        #expect(mode(folder.appendingPathComponent("data").path) == 0o700)
        // An existing file keeps the permissions its operator gave it.
        let shared = folder.appendingPathComponent("shared.sqlite").path
        #expect(FileManager.default.createFile(atPath: shared, contents: nil, attributes: [.posixPermissions: 0o640]))
        _ = try SQLiteStore(path: shared)
        #expect(mode(shared) == 0o640)
    }

    @Test("the file keeps passes, registrations and tags across reopening; migrating twice is harmless")
    func reopen() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a/b/store.sqlite").path
        let tag: Int64
        do {
            let store = try SQLiteStore(path: path)
            try await store.migrate()
            tag = try await Fixtures.insert(["F1"], into: store)[0].updateTag
            _ = try await Fixtures.register("dev-1", token: "token", "F1", in: store)
        }
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        try await store.migrate()
        #expect(try await store.registrationCount(passTypeIdentifier: Fixtures.passType, serialNumber: "F1") == 1)
        let next = try await Fixtures.insert(["F2"], into: store)[0]
        #expect(next.updateTag > tag)
    }

    @Test("reads through the store's own connections: more readers than connections wait their turn, and every read sees what was committed before it")
    func boundedReadConnections() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(configuration: .init(path: folder.appendingPathComponent("store.sqlite").path,
                                                         maximumReaderCount: 1))
        try await store.migrate()
        try await Fixtures.insert(["R0"], into: store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 1...40 {
                group.addTask {
                    // A write, then reads of it from another connection: committed data is visible at once.
                    let inserted = try await Fixtures.insert(["R\(index)"], into: store)[0]
                    let found = try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "R\(index)")
                    #expect(found == inserted)
                    _ = try await Fixtures.register("dev-\(index)", token: "t\(index)", "R\(index)", in: store)
                    let list = try await Fixtures.serialNumbers("dev-\(index)", in: store)
                    #expect(list?.serialNumbers == ["R\(index)"])
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "R0") != nil)
    }

    @Test("bulkLoad stores passes and registrations in one transaction, or nothing")
    func bulkLoad() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path)
        try await store.migrate()
        let passes = (0..<200).map { Fixtures.newPass("B\($0)") }
        let registrations = (0..<1000).map {
            DeviceRegistration(
                deviceLibraryIdentifier: "dev-\($0 / 4)", pushToken: "token-\($0 / 4)",
                passTypeIdentifier: Fixtures.passType, serialNumber: "B\($0 % 200)"
            )
        }
        try await store.bulkLoad(passes: passes, registrations: registrations, now: Fixtures.now)
        #expect(try await store.registrationCount(passTypeIdentifier: Fixtures.passType, serialNumber: "B0") == 5)
        let list = try await Fixtures.serialNumbers("dev-7", in: store)
        #expect(list?.serialNumbers.count == 4)

        let bad = [
            DeviceRegistration(
                deviceLibraryIdentifier: "dev-x", pushToken: "t", passTypeIdentifier: Fixtures.passType, serialNumber: "none"
            )
        ]
        await #expect(throws: PassStoreError.self) {
            try await store.bulkLoad(passes: [Fixtures.newPass("C1")], registrations: bad, now: Fixtures.now)
        }
        #expect(try await store.pass(passTypeIdentifier: Fixtures.passType, serialNumber: "C1") == nil)
    }
}
