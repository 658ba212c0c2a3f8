import Foundation
import GRDB
@testable import SQLiteStore
import Testing

/// The writer maps the file (`memoryMapSize`); the device endpoints' read connections do not by default
/// (`readerMemoryMapSize`): each mapping counts the same pages in the process's resident set again.
@Suite("SQLiteStore's memory mappings")
struct SQLiteMemoryMapTests {
    private func mappings(_ configure: (inout SQLiteStore.Configuration) -> Void) async throws -> (reader: Int, writer: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-mmap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = SQLiteStore.Configuration(path: folder.appendingPathComponent("store.sqlite").path)
        configure(&configuration)
        let store = try SQLiteStore(configuration: configuration)
        try await store.migrate()
        let reader = try await store.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") ?? -1 }
        let writer = try await store.write { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") ?? -1 }
        return (reader, writer)
    }

    @Test("by default the writer maps 256 MB and the readers nothing")
    func defaults() async throws {
        let sizes = try await mappings { _ in }
        #expect(sizes.writer == 256 << 20)
        #expect(sizes.reader == 0)
    }

    @Test("each size as configured")
    func configured() async throws {
        let sizes = try await mappings { configuration in
            configuration.memoryMapSize = 2 << 20
            configuration.readerMemoryMapSize = 1 << 20
        }
        #expect(sizes.writer == 2 << 20)
        #expect(sizes.reader == 1 << 20)
    }
}
