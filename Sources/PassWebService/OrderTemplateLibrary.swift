import Foundation
import OrderModel
import PassBundle
import PassModel
import Synchronization

/// The order templates under the server's order templates folders, loaded on first use and kept with their signing
/// builders. Each folder signs with its own Order Type ID (``OrderIssuer/TemplateSource``); a template name is looked
/// up in the folders in order.
final class OrderTemplateLibrary: Sendable {
    /// The sources and how many times they were replaced: a builder made with sources since replaced is not kept.
    private let sources: Mutex<(list: [OrderIssuer.TemplateSource], generation: Int)>
    private let builders = Mutex([String: OrderBuilder]())

    init(sources: [OrderIssuer.TemplateSource]) {
        self.sources = Mutex((sources, 0))
    }

    /// The folders and the identities they sign with, in lookup order.
    var currentSources: [OrderIssuer.TemplateSource] { sources.withLock { $0.list } }

    /// Replaces the folders and identities (credentials renewed): every builder is dropped, so the next use builds
    /// with the new signer; a builder being made with the old ones meanwhile is used once and not kept.
    func replaceSources(_ replacement: [OrderIssuer.TemplateSource]) {
        sources.withLock { $0 = (replacement, $0.generation + 1) }
        builders.withLock { $0.removeAll() }
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

    /// The builder of template `name` when it is already loaded, else `nil` (nothing is read).
    func loadedBuilder(named name: String) -> OrderBuilder? {
        builders.withLock { $0[name] }
    }

    /// The builder of template `name`, loading it on first use (reads files: call it off the event loops).
    /// - Throws: ``IssuerError`` `unknownTemplate` or `invalidTemplate`.
    func builder(named name: String) throws -> OrderBuilder {
        if let builder = loadedBuilder(named: name) { return builder }
        let generation = sources.withLock { $0.generation }
        guard let (folder, source) = folder(named: name) else { throw IssuerError.unknownTemplate(name) }
        let builder: OrderBuilder
        do {
            builder = OrderBuilder(template: try OrderTemplate(directory: folder), signer: source.signer)
        } catch let error as PassModelError {
            throw IssuerError.invalidTemplate(name, PassIssuer.withoutFolders(error.description, [folder.deletingLastPathComponent()]))
        }
        // Kept only when no replacement came meanwhile (the lock order, sources then builders, is replaceSources').
        sources.withLock { sources in
            guard sources.generation == generation else { return }
            builders.withLock { $0[name] = builder }
        }
        return builder
    }
}
