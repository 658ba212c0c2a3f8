import Foundation
import GRDB
import PassStore
import SQLiteStore
import Testing

/// A migration that cannot be applied says which file it was, so an operator with several databases knows which.
@Suite("SQLiteStore: migration failures")
struct SQLiteMigrationErrorTests {
    @Test("a file whose tables clash with the migrations' is named in the error")
    func namesTheFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("other-app.sqlite").path
        // Another program's database with a table of the same name as the first migration's.
        try await DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE passes (id INTEGER)") }
        let store = try SQLiteStore(configuration: .init(path: path))
        let error = await #expect(throws: PassStoreError.self) { try await store.migrate() }
        #expect("\(String(describing: error))".contains("migration of \(path) failed"), "\(String(describing: error))")
    }
}
