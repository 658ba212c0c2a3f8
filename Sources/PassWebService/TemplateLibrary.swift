import Foundation
import PassBundle
import PassCrypto
import PassModel

/// The templates under the server's templates folders with their signing builders: each template's current content,
/// read on first use and again after ``TemplateVersions/forgetCurrent()`` (an edit noticed on disk), and the earlier versions that
/// passes are still pinned to, rebuilt from the content the store keeps. Each folder signs with its own identity
/// (``PassIssuer/TemplateSource``); a template name is looked up in the folders in order.
final class TemplateLibrary: VersionedTemplateLibrary {
    /// A template ready to build passes: as is, and (for personalizable templates) personalized, i.e. without
    /// `personalization.json`, the way Wallet wants the pass after rewards enrollment.
    struct Entry: VersionedTemplateEntry {
        var builder: PassBuilder
        var personalizedBuilder: PassBuilder?
        /// The content version (see ``TemplateLibrary/contentVersion(of:)``).
        var version: String
        var generation = 0
        /// The folder's `.tessera.json` as read with its current content (earlier versions keep the defaults: the
        /// settings in force are always the current folder's).
        var settings = TemplateSettings()
        var isPersonalizable: Bool { personalizedBuilder != nil }
        var signedTypeIdentifier: String? { builder.signer.credentials.identity.passTypeIdentifier }
    }

    let versions: TemplateVersions<PassIssuer.TemplateSource, Entry>

    init(sources: [PassIssuer.TemplateSource]) {
        versions = TemplateVersions(sources: sources, names: PassIssuer.templateNames(in:))
    }

    /// The signer of a pass type identifier: the source whose certificate names it. Only when no certificate names
    /// a Pass Type ID (or the pass has none), the one whose templates folder holds template `name`, else the first:
    /// another identity's certificate would make the pass another brand's.
    /// - Throws: ``IssuerError`` `signingUnavailable` (503) when no identity signs `passTypeIdentifier` now.
    private func signer(passTypeIdentifier: String?, template name: String) throws -> PassSigner? {
        let sources = versions.currentSources
        if let passTypeIdentifier {
            if let source = sources.first(where: {
                $0.signer.credentials.identity.passTypeIdentifier == passTypeIdentifier
            }) {
                return source.signer
            }
            if sources.contains(where: { $0.signer.credentials.identity.passTypeIdentifier != nil }) {
                throw IssuerError.noIdentity(passTypeIdentifier, items: "passes")
            }
        }
        return (sources.first { Self.folder(named: name, in: $0.directory) != nil } ?? sources.first)?.signer
    }

    /// The folder of template `name` under `directory`: a plain folder, or a Pass Designer bundle of the same name
    /// (`name.pkpasstemplate`), holding `pass.json`.
    private static func folder(named name: String, in directory: URL) -> URL? {
        [name, "\(name).\(PassTemplate.designerBundleExtension)"].map {
            directory.appendingPathComponent($0, isDirectory: true)
        }.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("pass.json").path) }
    }

    /// Whether a template name is a plain folder name (no path separators, no `..`, no hidden folders).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && !name.hasPrefix(".")
            && name.utf8.allSatisfy { $0.isLetterOrDigitASCII || "-_.".utf8.contains($0) }
    }

    /// Reads template `name` from the templates folder (reads and hashes files: call it off the event loops). The
    /// entry is not kept: ``TemplateVersions/keepCurrent(_:named:readIn:)`` keeps it, once its version is in the store.
    /// - Returns: The entry and its template's content, serialized for the store.
    /// - Throws: ``IssuerError`` `unknownTemplate` or `invalidTemplate`.
    func read(named name: String) throws -> (entry: Entry, content: Data) {
        guard Self.isValidName(name) else { throw IssuerError.unknownTemplate(name) }
        let generation = versions.generation
        let holders = versions.currentSources.filter { Self.folder(named: name, in: $0.directory) != nil }
        guard let source = try versions.holder(of: name, among: holders),
              let folder = Self.folder(named: name, in: source.directory)
        else {
            throw IssuerError.unknownTemplate(name)
        }
        let signer = source.signer
        do {
            let template = try PassTemplate(directory: folder)
            var entry = try entry(for: template, signer: signer)
            entry.generation = generation
            entry.settings = try TemplateSettings(folder: folder)
            return (entry, try StoredTemplate(template).encoded())
        } catch let error as PassModelError {
            throw IssuerError.invalidTemplate(name, PassIssuer.withoutFolders(error.description, [folder.deletingLastPathComponent()]))
        } catch let error as SettingsError {
            throw IssuerError.invalidTemplate(name, PassIssuer.withoutFolders(error.description, [folder.deletingLastPathComponent()]))
        }
    }

    /// Rebuilds an earlier version of template `name` from the content the store kept, and keeps it; it signs with
    /// the identity of `passTypeIdentifier` (the pass's own).
    /// - Throws: ``IssuerError`` `invalidTemplate` when the content does not decode or build.
    func earlierEntry(named name: String, version: String, content: Data, typeIdentifier passTypeIdentifier: String)
        throws -> Entry
    {
        if let entry = versions.loadedEntry(named: name, version: version, signing: passTypeIdentifier) { return entry }
        let generation = versions.generation
        guard let signer = try signer(passTypeIdentifier: passTypeIdentifier, template: name) else {
            throw IssuerError.unknownTemplate(name)
        }
        do {
            var entry = try entry(for: try StoredTemplate.decode(content, name: name), signer: signer)
            entry.generation = generation
            versions.keepEarlier(entry, named: name)
            return entry
        } catch let error as PassModelError {
            throw IssuerError.invalidTemplate(name, "stored version \(version): \(error.description)")
        } catch let error as DecodingError {
            throw IssuerError.invalidTemplate(name, "stored version \(version) does not decode: \(error)")
        }
    }

    private func entry(for template: PassTemplate, signer: PassSigner) throws -> Entry {
        var personalized: PassBuilder?
        if template.files["personalization.json"] != nil {
            var plain = template
            plain.files = plain.files.filter { !Self.isPersonalizationFile($0.key) }
            personalized = try PassBuilder(template: plain, signer: signer)
        }
        return Entry(builder: try PassBuilder(template: template, signer: signer), personalizedBuilder: personalized,
                     version: Self.contentVersion(of: template))
    }

    /// SHA-256 over each file's path and bytes in path order (`pass.json` included), as 16 hexadecimal digits.
    static func contentVersion(of template: PassTemplate) -> String {
        contentVersion(main: ("pass.json", template.passJSON), files: template.files)
    }

    /// SHA-256 over the main file's path and bytes, then every other file's in path order, as 16 hexadecimal
    /// digits: a template's content version (passes' and orders').
    static func contentVersion(main: (path: String, data: Data), files: [String: Data]) -> String {
        var bytes = Data()
        for (path, data) in [main] + files.sorted(by: { $0.key < $1.key }) {
            bytes.append(contentsOf: Array(path.utf8) + [0])
            withUnsafeBytes(of: UInt64(data.count).bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(data)
        }
        return String(Hex.encode(Digest.sha256(bytes)).prefix(16))
    }

    /// `personalization.json` and the `personalizationLogo` images only belong in the personalizable version.
    private static func isPersonalizationFile(_ path: String) -> Bool {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file == "personalization.json" || file.hasPrefix("personalizationLogo")
    }
}

/// A template's files as the store keeps a version: `pass.json` and every other file, base64 in JSON.
private struct StoredTemplate: Codable {
    var passJSON: Data
    var files: [String: Data]

    init(_ template: PassTemplate) {
        passJSON = template.passJSON
        files = template.files
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(self)
    }

    static func decode(_ content: Data, name: String) throws -> PassTemplate {
        let stored = try JSONDecoder().decode(StoredTemplate.self, from: content)
        return try PassTemplate(name: name, passJSON: stored.passJSON, files: stored.files)
    }
}
