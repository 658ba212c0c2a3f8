import Foundation
import OrderModel
import PassBundle
import PassModel
import Synchronization

/// The order templates under the server's order templates folders, loaded on first use and kept with their signing
/// builders. Each folder signs with its own Order Type ID (``OrderIssuer/TemplateSource``); a template name is looked
/// up in the folders in order.
final class OrderTemplateLibrary: Sendable {
    private let sources: Mutex<[OrderIssuer.TemplateSource]>
    private let builders = Mutex([String: OrderBuilder]())

    init(sources: [OrderIssuer.TemplateSource]) {
        self.sources = Mutex(sources)
    }

    /// The folders and the identities they sign with, in lookup order.
    var currentSources: [OrderIssuer.TemplateSource] { sources.withLock { $0 } }

    /// Replaces the folders and identities (credentials renewed): every builder is dropped, so the next use builds
    /// with the new signer.
    func replaceSources(_ replacement: [OrderIssuer.TemplateSource]) {
        sources.withLock { $0 = replacement }
        builders.withLock { $0.removeAll() }
    }

    /// The builder of template `name` when it is already loaded, else `nil` (nothing is read).
    func loadedBuilder(named name: String) -> OrderBuilder? {
        builders.withLock { $0[name] }
    }

    /// The builder of template `name`, loading it on first use (reads files: call it off the event loops).
    /// - Throws: ``IssuerError`` `unknownTemplate` or `invalidTemplate`.
    func builder(named name: String) throws -> OrderBuilder {
        if let builder = loadedBuilder(named: name) { return builder }
        guard TemplateLibrary.isValidName(name),
              let (folder, signer) = currentSources.lazy.compactMap({ source -> (URL, OrderSigner)? in
                  let folder = source.directory.appendingPathComponent(name, isDirectory: true)
                  return FileManager.default.fileExists(atPath: folder.appendingPathComponent("order.json").path)
                      ? (folder, source.signer) : nil
              }).first
        else { throw IssuerError.unknownTemplate(name) }
        let builder: OrderBuilder
        do {
            builder = OrderBuilder(template: try OrderTemplate(directory: folder), signer: signer)
        } catch let error as PassModelError {
            throw IssuerError.invalidTemplate(name, PassIssuer.withoutFolders(error.description, [folder.deletingLastPathComponent()]))
        }
        builders.withLock { $0[name] = builder }
        return builder
    }
}
