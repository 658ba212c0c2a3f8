import Foundation
import PassBundle
import PassModel
import Synchronization

/// The templates under the server's templates folder, loaded on first use and kept with their signing builders.
final class TemplateLibrary: Sendable {
    /// A template ready to build passes: as is, and (for personalizable templates) personalized, i.e. without
    /// `personalization.json`, the way Wallet wants the pass after rewards enrollment.
    struct Entry: Sendable {
        var builder: PassBuilder
        var personalizedBuilder: PassBuilder?
        var isPersonalizable: Bool { personalizedBuilder != nil }
    }

    private let directory: URL
    private let signer: PassSigner
    private let entries = Mutex([String: Entry]())

    init(directory: URL, signer: PassSigner) {
        self.directory = directory
        self.signer = signer
    }

    /// Whether a template name is a plain folder name (no path separators, no `..`, no hidden folders).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && !name.hasPrefix(".")
            && name.utf8.allSatisfy { $0.isLetterOrDigitASCII || "-_.".utf8.contains($0) }
    }

    /// The template `name` when it is already loaded, else `nil` (nothing is read).
    func loadedEntry(named name: String) -> Entry? {
        entries.withLock { $0[name] }
    }

    /// The template `name`, loading it on first use (reads and hashes files: call it off the event loops).
    /// - Throws: ``IssuerError`` `unknownTemplate` or `invalidTemplate`.
    func entry(named name: String) throws -> Entry {
        if let entry = entries.withLock({ $0[name] }) { return entry }
        guard Self.isValidName(name) else { throw IssuerError.unknownTemplate(name) }
        // A plain folder, or a Pass Designer bundle of the same name (`name.pkpasstemplate`).
        let candidates = [name, "\(name).\(PassTemplate.designerBundleExtension)"].map {
            directory.appendingPathComponent($0, isDirectory: true)
        }
        guard let folder = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("pass.json").path)
        }) else {
            throw IssuerError.unknownTemplate(name)
        }
        let entry: Entry
        do {
            let template = try PassTemplate(directory: folder)
            var personalized: PassBuilder?
            if template.files["personalization.json"] != nil {
                var plain = template
                plain.files = plain.files.filter { !Self.isPersonalizationFile($0.key) }
                personalized = try PassBuilder(template: plain, signer: signer)
            }
            entry = Entry(builder: try PassBuilder(template: template, signer: signer), personalizedBuilder: personalized)
        } catch let error as PassModelError {
            throw IssuerError.invalidTemplate(name, error.description)
        }
        entries.withLock { $0[name] = entry }
        return entry
    }

    /// `personalization.json` and the `personalizationLogo` images only belong in the personalizable version.
    private static func isPersonalizationFile(_ path: String) -> Bool {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file == "personalization.json" || file.hasPrefix("personalizationLogo")
    }
}
