import Foundation
import NIOPosix
import PassStore
import Synchronization

/// A template's content ready to build items (passes or orders), tagged with its content version.
protocol VersionedTemplateEntry: Sendable {
    /// The content version (see ``TemplateLibrary/contentVersion(main:files:)``).
    var version: String { get }
    /// The sources' generation it was built in: an entry built with signers since replaced is not kept.
    var generation: Int { get set }
}

/// The versions of a kind of template one process holds: each template's current content, read on first use and
/// again after ``forgetCurrent()`` (an edit noticed on disk), and the earlier versions items are still pinned to,
/// with the templates folders (and their signers) the current content is read from.
final class TemplateVersions<Source: Sendable, Entry: VersionedTemplateEntry>: Sendable {
    private struct VersionKey: Hashable {
        var name: String
        var version: String
    }

    /// The sources and how many times they were replaced.
    private let sources: Mutex<(list: [Source], generation: Int)>
    private let current = Mutex([String: Entry]())
    private let earlier = Mutex([VersionKey: Entry]())

    init(sources: [Source]) {
        self.sources = Mutex((sources, 0))
    }

    /// The folders and the identities they sign with, in lookup order.
    var currentSources: [Source] { sources.withLock { $0.list } }

    /// How many times the sources were replaced: an entry is built with the generation it read its sources in.
    var generation: Int { sources.withLock { $0.generation } }

    /// Replaces the folders and identities (credentials renewed): every entry made so far is dropped, so the next use
    /// of any version builds with the new signer; requests holding an entry finish with the one they hold.
    func replaceSources(_ replacement: [Source]) {
        sources.withLock { $0 = (replacement, $0.generation + 1) }
        current.withLock { $0.removeAll() }
        earlier.withLock { $0.removeAll() }
    }

    /// The current content of template `name` when it is loaded, else `nil` (nothing is read).
    func loadedEntry(named name: String) -> Entry? {
        current.withLock { $0[name] }
    }

    /// Version `version` of template `name` when it is loaded (as the current content or an earlier one), else `nil`.
    func loadedEntry(named name: String, version: String) -> Entry? {
        if let entry = loadedEntry(named: name), entry.version == version { return entry }
        return earlier.withLock { $0[VersionKey(name: name, version: version)] }
    }

    /// The loaded templates' current versions, by name.
    var loadedVersions: [String: String] { current.withLock { $0.mapValues(\.version) } }

    /// Keeps `entry` as the current content of `name`; the content it replaces stays available as an earlier version.
    /// An entry built with signers replaced meanwhile is not kept (the next use builds it again with the new ones).
    func keepCurrent(_ entry: Entry, named name: String) {
        let replaced = current.withLock { current -> Entry? in
            guard entry.generation == generation else { return nil }
            defer { current[name] = entry }
            return current[name]
        }
        if let replaced, replaced.version != entry.version {
            earlier.withLock { $0[VersionKey(name: name, version: replaced.version)] = replaced }
        }
    }

    /// Keeps `entry`, rebuilt from the store, as an earlier version of `name`, unless its signers were replaced.
    func keepEarlier(_ entry: Entry, named name: String) {
        earlier.withLock { earlier in
            if entry.generation == generation { earlier[VersionKey(name: name, version: entry.version)] = entry }
        }
    }

    /// Forgets every template's current content, so the next use reads its files again; versions read so far stay
    /// available for the items pinned to them.
    func forgetCurrent() {
        let dropped = current.withLock { current in
            defer { current.removeAll() }
            return current
        }
        earlier.withLock { earlier in
            for (name, entry) in dropped { earlier[VersionKey(name: name, version: entry.version)] = entry }
        }
    }
}

/// A library of one kind of template (passes' or orders'): reads a template's current files and rebuilds an earlier
/// version from the content the store kept. Its items are pinned to the version they were made from.
protocol VersionedTemplateLibrary: Sendable {
    associatedtype Source: Sendable
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
        let (entry, content) = try await NIOThreadPool.singleton.runIfActive { try read(named: name) }
        if let store = store as? any TemplateVersionStore {
            _ = try await store.saveTemplateVersion(name: name, version: entry.version, content: content, now: now)
        }
        versions.keepCurrent(entry, named: name)
        return entry
    }

    /// The template version `item` is built from: the one it is pinned to, from the store when it is not the current
    /// content; the current content for an item not pinned yet.
    /// - Parameter kind: What the item is (`pass`, `order`), for the error.
    /// - Throws: ``IssuerError`` when the item's version is neither current nor in the store.
    func entry(for item: PassRecord, kind: String, store: any PassStore, now: Date) async throws -> Entry {
        let name = item.template
        guard let version = item.templateVersion else { return try await currentEntry(named: name, store: store, now: now) }
        if let entry = versions.loadedEntry(named: name, version: version) { return entry }
        // Not read yet in this process: the current files may be that version (the common case after a start).
        if versions.loadedEntry(named: name) == nil,
           let entry = try? await currentEntry(named: name, store: store, now: now), entry.version == version
        {
            return entry
        }
        guard let store = store as? any TemplateVersionStore,
              let content = try await store.templateVersionContent(name: name, version: version)
        else {
            throw IssuerError.invalidTemplate(
                name, "version \(version), which \(kind) \(item.serialNumber) is built from, is not in the store")
        }
        let type = item.passTypeIdentifier
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
