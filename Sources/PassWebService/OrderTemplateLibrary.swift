import Foundation
import OrderModel
import PassBundle
import PassCrypto
import PassModel

/// The order templates under the server's order templates folders with their signing builders: each template's
/// current content, read on first use and again after ``TemplateVersions/forgetCurrent()`` (an edit noticed on disk), and the earlier
/// versions that orders are still pinned to, rebuilt from the content the store keeps. Each folder signs with its own
/// Order Type ID (``OrderIssuer/TemplateSource``); a template name is looked up in the folders in order.
final class OrderTemplateLibrary: VersionedTemplateLibrary {
    /// A template ready to build orders, and its content version.
    struct Entry: VersionedTemplateEntry {
        var builder: OrderBuilder
        /// The content version (see ``OrderTemplateLibrary/contentVersion(of:)``).
        var version: String
        var generation = 0
        var signedTypeIdentifier: String? { builder.signer.identity.orderTypeIdentifier }
    }

    let versions: TemplateVersions<OrderIssuer.TemplateSource, Entry>

    init(sources: [OrderIssuer.TemplateSource]) {
        versions = TemplateVersions(sources: sources, names: OrderIssuer.templateNames(in:))
    }

    /// The folder holding template `name` and the signer of its source, in lookup order; `nil` when none holds it.
    func folder(named name: String) -> (folder: URL, source: OrderIssuer.TemplateSource)? {
        try? holder(named: name)
    }

    /// ``folder(named:)``, or the error of a template new since the sources were set and in several folders.
    private func holder(named name: String) throws -> (folder: URL, source: OrderIssuer.TemplateSource)? {
        guard TemplateLibrary.isValidName(name) else { return nil }
        let folder = { (source: OrderIssuer.TemplateSource) in source.directory.appendingPathComponent(name, isDirectory: true) }
        let holders = versions.currentSources.filter {
            FileManager.default.fileExists(atPath: folder($0).appendingPathComponent("order.json").path)
        }
        return try versions.holder(of: name, among: holders).map { (folder($0), $0) }
    }

    /// Reads template `name` from its folder (reads and hashes files: call it off the event loops). The entry is not
    /// kept: ``TemplateVersions/keepCurrent(_:named:readIn:)`` keeps it, once its version is in the store.
    /// - Returns: The entry and the template's content, serialized for the store.
    /// - Throws: ``IssuerError`` `unknownTemplate` or `invalidTemplate`.
    func read(named name: String) throws -> (entry: Entry, content: Data) {
        let generation = versions.generation
        guard let (folder, source) = try holder(named: name) else { throw IssuerError.unknownTemplate(name) }
        do {
            let template = try OrderTemplate(directory: folder)
            let entry = Entry(builder: OrderBuilder(template: template, signer: source.signer),
                              version: Self.contentVersion(of: template), generation: generation)
            return (entry, try StoredOrderTemplate(template).encoded())
        } catch let error as PassModelError {
            throw IssuerError.invalidTemplate(name, PassIssuer.withoutFolders(error.description, [folder.deletingLastPathComponent()]))
        }
    }

    /// Rebuilds an earlier version of template `name` from the content the store kept, and keeps it; it signs with
    /// the identity whose certificate names `orderTypeIdentifier` (the order's own).
    /// - Throws: ``IssuerError`` `signingUnavailable` when no identity signs that type now, `invalidTemplate` when the
    ///   content does not decode.
    func earlierEntry(named name: String, version: String, content: Data, typeIdentifier orderTypeIdentifier: String)
        throws -> Entry
    {
        if let entry = versions.loadedEntry(named: name, version: version, signing: orderTypeIdentifier) { return entry }
        let generation = versions.generation
        guard let source = versions.currentSources.first(where: { $0.signer.identity.orderTypeIdentifier == orderTypeIdentifier })
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
        versions.keepEarlier(entry, named: name)
        return entry
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
