import Foundation
import OrderModel
import PassBundle
import PassCrypto
import PassModel
import Synchronization

/// The order templates under the server's order templates folders with their signing builders: each template's
/// current content, read on first use and again after ``forgetCurrent()`` (an edit noticed on disk), and the earlier
/// versions that orders are still pinned to, rebuilt from the content the store keeps. Each folder signs with its own
/// Order Type ID (``OrderIssuer/TemplateSource``); a template name is looked up in the folders in order.
final class OrderTemplateLibrary: Sendable {
    /// A template ready to build orders, and its content version.
    struct Entry: Sendable {
        var builder: OrderBuilder
        /// The content version (see ``OrderTemplateLibrary/contentVersion(of:)``).
        var version: String
        /// The sources' generation it was built in: an entry built with signers since replaced is not kept.
        var generation = 0
    }

    private struct VersionKey: Hashable {
        var name: String
        var version: String
    }

    /// The sources and how many times they were replaced.
    private let sources: Mutex<(list: [OrderIssuer.TemplateSource], generation: Int)>
    private let current = Mutex([String: Entry]())
    private let earlier = Mutex([VersionKey: Entry]())

    init(sources: [OrderIssuer.TemplateSource]) {
        self.sources = Mutex((sources, 0))
    }

    /// The folders and the identities they sign with, in lookup order.
    var currentSources: [OrderIssuer.TemplateSource] { sources.withLock { $0.list } }

    private var generation: Int { sources.withLock { $0.generation } }

    /// Replaces the folders and identities (credentials renewed): every builder made so far is dropped, so the next
    /// use of any version builds with the new signer; requests holding an entry finish with the one they hold.
    func replaceSources(_ replacement: [OrderIssuer.TemplateSource]) {
        sources.withLock { $0 = (replacement, $0.generation + 1) }
        current.withLock { $0.removeAll() }
        earlier.withLock { $0.removeAll() }
    }

    /// The folder holding template `name` and the signer of its source, in lookup order; `nil` when none holds it.
    func folder(named name: String) -> (folder: URL, source: OrderIssuer.TemplateSource)? {
        guard TemplateLibrary.isValidName(name) else { return nil }
        return currentSources.lazy.compactMap { source -> (URL, OrderIssuer.TemplateSource)? in
            let folder = source.directory.appendingPathComponent(name, isDirectory: true)
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent("order.json").path)
                ? (folder, source) : nil
        }.first
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

    /// Names of the templates loaded now.
    var loadedNames: [String] { current.withLock { Array($0.keys) } }

    /// Reads template `name` from its folder (reads and hashes files: call it off the event loops). The entry is not
    /// kept: ``keepCurrent(_:named:)`` keeps it, once its version is in the store.
    /// - Returns: The entry and the template's content, serialized for the store.
    /// - Throws: ``IssuerError`` `unknownTemplate` or `invalidTemplate`.
    func read(named name: String) throws -> (entry: Entry, content: Data) {
        let generation = self.generation
        guard let (folder, source) = folder(named: name) else { throw IssuerError.unknownTemplate(name) }
        do {
            let template = try OrderTemplate(directory: folder)
            let entry = Entry(builder: OrderBuilder(template: template, signer: source.signer),
                              version: Self.contentVersion(of: template), generation: generation)
            return (entry, try StoredOrderTemplate(template).encoded())
        } catch let error as PassModelError {
            throw IssuerError.invalidTemplate(name, PassIssuer.withoutFolders(error.description, [folder.deletingLastPathComponent()]))
        }
    }

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

    /// Rebuilds an earlier version of template `name` from the content the store kept, and keeps it; it signs with
    /// the identity whose certificate names `orderTypeIdentifier` (the order's own).
    /// - Throws: ``IssuerError`` `signingUnavailable` when no identity signs that type now, `invalidTemplate` when the
    ///   content does not decode.
    func earlierEntry(named name: String, version: String, content: Data, orderTypeIdentifier: String) throws -> Entry {
        if let entry = loadedEntry(named: name, version: version) { return entry }
        let generation = self.generation
        guard let source = currentSources.first(where: { $0.signer.identity.orderTypeIdentifier == orderTypeIdentifier })
        else {
            throw IssuerError.noIdentity(orderTypeIdentifier, items: "orders")
        }
        let template: OrderTemplate
        do {
            template = try StoredOrderTemplate.decode(content, name: name)
        } catch let error as PassModelError {
            throw IssuerError.invalidTemplate(name, "stored version \(version): \(error.description)")
        } catch {
            throw IssuerError.invalidTemplate(name, "stored version \(version) does not decode: \(error)")
        }
        let entry = Entry(builder: OrderBuilder(template: template, signer: source.signer), version: version,
                          generation: generation)
        earlier.withLock { earlier in
            if generation == self.generation { earlier[VersionKey(name: name, version: version)] = entry }
        }
        return entry
    }

    /// Forgets every template's current content, so the next use reads its files again; versions read so far stay
    /// available for the orders pinned to them.
    func forgetCurrent() {
        let dropped = current.withLock { current in
            defer { current.removeAll() }
            return current
        }
        earlier.withLock { earlier in
            for (name, entry) in dropped { earlier[VersionKey(name: name, version: entry.version)] = entry }
        }
    }

    /// SHA-256 over each file's path and bytes in path order (`order.json` included), as 16 hexadecimal digits.
    static func contentVersion(of template: OrderTemplate) -> String {
        TemplateLibrary.contentVersion(main: ("order.json", template.orderJSON), files: template.files)
    }
}

/// An order template's files as the store keeps a version: `order.json` and every other file, base64 in JSON.
private struct StoredOrderTemplate: Codable {
    var orderJSON: Data
    var files: [String: Data]

    init(_ template: OrderTemplate) {
        orderJSON = template.orderJSON
        files = template.files
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(self)
    }

    static func decode(_ content: Data, name: String) throws -> OrderTemplate {
        let stored = try JSONDecoder().decode(StoredOrderTemplate.self, from: content)
        return try OrderTemplate(name: name, orderJSON: stored.orderJSON, files: stored.files)
    }
}
