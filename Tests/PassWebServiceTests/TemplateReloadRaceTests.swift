import Foundation
import PassStore
@testable import PassWebService
import Synchronization
import Testing

/// A template edit noticed (`SIGHUP`, the folder's files changed) while a first use of the template is still reading
/// its files: the content that read finds may be from before the edit, and must not stay the current content after
/// the reload, or new passes keep being made from the old files until the next edit.
@Suite("Template reload racing a first read")
struct TemplateReloadRaceTests {
    struct Folder: TemplateFolderSource {
        var directory: URL
    }

    struct Entry: VersionedTemplateEntry {
        var version: String
        var generation = 0
        var signedTypeIdentifier: String? { nil }
    }

    /// A library whose "files" are a string, and whose first read takes the files, then waits to be let go.
    final class Library: VersionedTemplateLibrary {
        typealias Source = Folder
        typealias Entry = TemplateReloadRaceTests.Entry

        let versions = TemplateVersions<Folder, TemplateReloadRaceTests.Entry>(
            sources: [Folder(directory: URL(fileURLWithPath: "/nonexistent"))], names: { (_: URL) in ["ticket"] })
        let files = Mutex("v1")
        let reads = Mutex(0)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func read(named name: String) throws -> (entry: Entry, content: Data) {
            let content = files.withLock { $0 }
            let first = reads.withLock { count in
                defer { count += 1 }
                return count == 0
            }
            if first {
                started.signal()
                release.wait()
            }
            return (Entry(version: content, generation: versions.generation), Data(content.utf8))
        }

        func earlierEntry(named name: String, version: String, content: Data, typeIdentifier: String) throws -> Entry {
            Entry(version: version, generation: versions.generation)
        }
    }

    @Test("a read that began before the reload answers its own use, and the next use reads the edited files")
    func readBeforeReloadIsNotKept() async throws {
        let library = Library()
        let store = MemoryPassStore()
        let first = Task { try await library.currentEntry(named: "ticket", store: store, now: Date()) }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                library.started.wait()
                continuation.resume()
            }
        }
        library.files.withLock { $0 = "v2" }
        _ = await library.readAgain(store: store, now: Date.init) { library.versions.forgetCurrent() }
        library.release.signal()
        #expect(try await first.value.version == "v1")

        let next = try await library.currentEntry(named: "ticket", store: store, now: Date())
        #expect(next.version == "v2", "the read from before the edit stayed the current content")
        // The version the first use made items from can still build them.
        #expect(library.versions.loadedEntry(named: "ticket", version: "v1", signing: "pass.x")?.version == "v1")
    }

    @Test("without a reload between, what a first read finds is kept and later uses read nothing")
    func readKept() async throws {
        let library = Library()
        library.release.signal()
        let store = MemoryPassStore()
        _ = try await library.currentEntry(named: "ticket", store: store, now: Date())
        library.files.withLock { $0 = "v2" }
        #expect(try await library.currentEntry(named: "ticket", store: store, now: Date()).version == "v1")
        #expect(library.reads.withLock { $0 } == 1)
    }
}
