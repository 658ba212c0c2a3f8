import Foundation
import PassStore
import SQLiteStore
import Testing

@Suite("SQLiteStore")
struct SQLiteStoreTests {
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
