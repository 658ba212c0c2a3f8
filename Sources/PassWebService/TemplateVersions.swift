import Foundation
import NIOPosix
import PassStore
import Synchronization

/// A templates folder and the identity its templates sign with.
protocol TemplateFolderSource: Sendable {
    /// The folder, one template per sub-folder.
    var directory: URL { get }
}

extension PassIssuer.TemplateSource: TemplateFolderSource {}
extension OrderIssuer.TemplateSource: TemplateFolderSource {}

/// A template's content ready to build items (passes or orders), tagged with its content version.
protocol VersionedTemplateEntry: Sendable {
    /// The content version (see ``TemplateLibrary/contentVersion(main:files:)``).
    var version: String { get }
    /// The sources' generation it was built in: an entry built with signers since replaced is not kept.
    var generation: Int { get set }
    /// The Pass or Order Type ID its signer's certificate names (`nil` for a certificate naming none): an item is
    /// only ever built by an entry signing its own type.
    var signedTypeIdentifier: String? { get }
}

extension VersionedTemplateEntry {
    /// Whether it signs items of `type`.
    func signs(_ type: String) -> Bool { signedTypeIdentifier.map { $0 == type } ?? true }
}

/// The versions of a kind of template one process holds: each template's current content, read on first use and
/// again after ``forgetCurrent()`` (an edit noticed on disk), and the earlier versions items are still pinned to,
/// with the templates folders (and their signers) the current content is read from.
final class TemplateVersions<Source: TemplateFolderSource, Entry: VersionedTemplateEntry>: Sendable {
    /// An earlier version by template, version and the type its signer signs: a template moved to another
    /// identity's folder keeps a version for each identity whose items are pinned to it.
    private struct VersionKey: Hashable {
        var name: String
        var version: String
        var type: String?

        init(_ name: String, _ entry: Entry) {
            self.init(name: name, version: entry.version, type: entry.signedTypeIdentifier)
        }

        init(name: String, version: String, type: String?) {
            (self.name, self.version, self.type) = (name, version, type)
        }
    }

    /// The sources and how many times they were replaced.
    private let sources: Mutex<(list: [Source], generation: Int)>
    /// Each template's current content, and how many times it was forgotten (a read that began before the last
    /// ``forgetCurrent()`` may hold the files as they were before the edit it was forgotten for: it is not kept).
    private let current = Mutex((entries: [String: Entry](), reading: 0))
    private let earlier = Mutex([VersionKey: Entry]())

    /// The template names in a folder.
    private let names: @Sendable (URL) -> [String]
    /// The folder each template name is read from: the one holding it when the sources were set (names are unique
    /// across them then: start-up and an identities reload refuse a clash), or where it was first found since.
    private let owners: Mutex<[String: URL]>

    /// - Parameters:
    ///   - sources: The folders and their signers, in lookup order.
    ///   - names: The template names in a folder.
    init(sources: [Source], names: @escaping @Sendable (URL) -> [String]) {
        self.sources = Mutex((sources, 0))
        self.names = names
        owners = Mutex(Self.owners(of: sources, names: names))
    }

    private static func owners(of sources: [Source], names: (URL) -> [String]) -> [String: URL] {
        var owners: [String: URL] = [:]
        for source in sources {
            for name in names(source.directory) where owners[name] == nil { owners[name] = source.directory.standardizedFileURL }
        }
        return owners
    }

    /// Of `holders`, the sources whose folder holds template `name` now (in lookup order), the one to read it from:
    /// a copy that appeared in another identity's folder meanwhile is ignored (it would sign the template's new items
    /// as another brand's); a template moved to another folder is read from there.
    /// - Throws: ``IssuerError`` `invalidTemplate` when a template new since the sources were set is in several
    ///   folders at once (no identity can be told to sign it).
    func holder(of name: String, among holders: [Source]) throws -> Source? {
        try owners.withLock { owners in
            let owner = owners[name]
            if let owner, let kept = holders.first(where: { $0.directory.standardizedFileURL == owner }) { return kept }
            guard holders.count < 2 else {
                throw IssuerError.invalidTemplate(name, "it is in more than one identity's templates folder: remove all copies but one")
            }
            owners[name] = holders.first?.directory.standardizedFileURL
            return holders.first
        }
    }

    /// The template names held by several folders now: the folder read and the copies ignored (``holder(of:among:)``).
    var clashes: [(name: String, kept: URL?, ignored: [URL])] {
        var holders: [String: [URL]] = [:]
        for source in currentSources {
            for name in names(source.directory) { holders[name, default: []].append(source.directory.standardizedFileURL) }
        }
        let owners = owners.withLock { $0 }
        return holders.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { name, folders in
            let kept = owners[name].flatMap { folders.contains($0) ? $0 : nil }
            return (name, kept, folders.filter { $0 != kept })
        }
    }

    /// The folders and the identities they sign with, in lookup order.
    var currentSources: [Source] { sources.withLock { $0.list } }

    /// How many times the sources were replaced: an entry is built with the generation it read its sources in.
    var generation: Int { sources.withLock { $0.generation } }

    /// Replaces the folders and identities (credentials renewed): every entry made so far is dropped, so the next use
    /// of any version builds with the new signer; requests holding an entry finish with the one they hold.
    func replaceSources(_ replacement: [Source]) {
        sources.withLock { $0 = (replacement, $0.generation + 1) }
        let owners = Self.owners(of: replacement, names: names)
        self.owners.withLock { $0 = owners }
        current.withLock { $0 = ([:], $0.reading + 1) }
        earlier.withLock { $0.removeAll() }
    }

    /// The current content of template `name` when it is loaded, else `nil` (nothing is read).
    func loadedEntry(named name: String) -> Entry? {
        current.withLock { $0.entries[name] }
    }

    /// How many times the current content was forgotten: a read notes it before it looks at the files, and what it
    /// read is kept as current only when no edit was noticed meanwhile (see ``keepCurrent(_:named:readIn:)``).
    var reading: Int { current.withLock { $0.reading } }

    /// Version `version` of template `name` signing items of `type`, when it is loaded (as the current content or an
    /// earlier one), else `nil`.
    func loadedEntry(named name: String, version: String, signing type: String) -> Entry? {
        if let entry = loadedEntry(named: name), entry.version == version, entry.signs(type) { return entry }
        return earlier.withLock {
            $0[VersionKey(name: name, version: version, type: type)] ?? $0[VersionKey(name: name, version: version, type: nil)]
        }
    }

    /// The loaded templates' current versions, by name.
    var loadedVersions: [String: String] { current.withLock { $0.entries.mapValues(\.version) } }

    /// Keeps `entry`, read when ``reading`` was `reading`, as the current content of `name`; the content it replaces
    /// stays available as an earlier version. An entry built with signers replaced meanwhile is not kept (the next use
    /// builds it again with the new ones); one read before an edit was noticed (the files may have changed under the
    /// read) is kept only as an earlier version, so the next use reads the files again.
    func keepCurrent(_ entry: Entry, named name: String, readIn reading: Int) {
        guard entry.generation == generation else { return }
        let (kept, replaced) = current.withLock { current -> (Bool, Entry?) in
            guard current.reading == reading else { return (false, nil) }
            defer { current.entries[name] = entry }
            return (true, current.entries[name])
        }
        if !kept {
            keepEarlier(entry, named: name)
        } else if let replaced,
                  replaced.version != entry.version || replaced.signedTypeIdentifier != entry.signedTypeIdentifier
        {
            earlier.withLock { $0[VersionKey(name, replaced)] = replaced }
        }
    }

    /// Keeps `entry`, rebuilt from the store, as an earlier version of `name`, unless its signers were replaced.
    func keepEarlier(_ entry: Entry, named name: String) {
        earlier.withLock { earlier in
            if entry.generation == generation { earlier[VersionKey(name, entry)] = entry }
        }
    }

    /// Forgets every template's current content, so the next use reads its files again; versions read so far stay
    /// available for the items pinned to them.
    func forgetCurrent() {
        let dropped = current.withLock { current in
            defer { current = ([:], current.reading + 1) }
            return current.entries
        }
        earlier.withLock { earlier in
            for (name, entry) in dropped { earlier[VersionKey(name, entry)] = entry }
        }
    }
}

/// A library of one kind of template (passes' or orders'): reads a template's current files and rebuilds an earlier
/// version from the content the store kept. Its items are pinned to the version they were made from.
protocol VersionedTemplateLibrary: Sendable {
    associatedtype Source: TemplateFolderSource
    associatedtype Entry: VersionedTemplateEntry

    /// The versions held in this process.
    var versions: TemplateVersions<Source, Entry> { get }

    /// Reads template `name` from its folder (reads and hashes files: call it off the event loops), not keeping it.
    /// - Returns: The entry and the template's content, serialized for the store.
    func read(named name: String) throws -> (entry: Entry, content: Data)

    /// Rebuilds version `version` of template `name` from `content` as the store kept it, signed with the identity
    /// of `typeIdentifier` (the item's own Pass or Order Type ID), and keeps it.
    func earlierEntry(named name: String, version: String, content: Data, typeIdentifier: String) throws -> Entry
}

extension VersionedTemplateLibrary {
    /// The current content of template `name`. A first use (and the first use after ``TemplateVersions/forgetCurrent()``)
    /// reads and hashes its files off the event loops and keeps the version in `store` before any item is made from
    /// it, so every server process can build the items pinned to it.
    func currentEntry(named name: String, store: any PassStore, now: Date) async throws -> Entry {
        if let entry = versions.loadedEntry(named: name) { return entry }
        // Noted before the files are read: an edit noticed while they are (a reload racing this first use) makes
        // what is read here a version only this use gets, not the current content for every later one.
        let reading = versions.reading
        let (entry, content) = try await NIOThreadPool.singleton.runIfActive { try read(named: name) }
        if let store = store as? any TemplateVersionStore {
            _ = try await store.saveTemplateVersion(name: name, version: entry.version, content: content, now: now)
        }
        versions.keepCurrent(entry, named: name, readIn: reading)
        return entry
    }

    /// The template version `item` is built from: the one it is pinned to, from the store when it is not the current
    /// content; the current content for an item not pinned yet.
    /// - Parameter kind: What the item is (`pass`, `order`), for the error.
    /// - Throws: ``IssuerError`` when the item's version is neither current nor in the store.
    func entry(for item: PassRecord, kind: String, store: any PassStore, now: Date) async throws -> Entry {
        guard let version = item.templateVersion else { return try await currentEntry(named: item.template, store: store, now: now) }
        return try await entry(named: item.template, version: version, signing: item.passTypeIdentifier,
                               for: "\(kind) \(item.serialNumber)", store: store, now: now)
    }

    /// Version `version` of template `name`, signed with the identity of `type`: loaded, the current content, or
    /// rebuilt from the store.
    /// - Parameter item: What is built from it (`pass SER-1`), for the error.
    /// - Throws: ``IssuerError`` when the version is neither loaded, current nor in the store.
    func entry(named name: String, version: String, signing type: String, for item: String, store: any PassStore, now: Date)
        async throws -> Entry
    {
        if let entry = versions.loadedEntry(named: name, version: version, signing: type) { return entry }
        // Not read yet in this process: the current files may be that version (the common case after a start).
        if versions.loadedEntry(named: name) == nil,
           let entry = try? await currentEntry(named: name, store: store, now: now), entry.version == version,
           entry.signs(type)
        {
            return entry
        }
        guard let store = store as? any TemplateVersionStore,
              let content = try await store.templateVersionContent(name: name, version: version)
        else {
            throw IssuerError.invalidTemplate(
                name, "version \(version), which \(item) is built from, is not in the store")
        }
        return try await NIOThreadPool.singleton.runIfActive {
            try earlierEntry(named: name, version: version, content: content, typeIdentifier: type)
        }
    }

    /// Notes the versions of the templates used so far, runs `forget` (which drops current entries), then reads
    /// those templates again, keeping their new versions in `store`, and says which changed and which no longer load.
    func readAgain(store: any PassStore, now: @escaping () -> Date, after forget: () -> Void) async -> TemplateReload {
        let before = versions.loadedVersions
        forget()
        var reload = TemplateReload(changed: [], failed: [])
        for (name, old) in before.sorted(by: { $0.key < $1.key }) {
            do {
                let entry = try await currentEntry(named: name, store: store, now: now())
                if entry.version != old { reload.changed.append((name, old, entry.version)) }
            } catch {
                reload.failed.append((name, "\(error)"))
            }
        }
        return reload
    }
}
