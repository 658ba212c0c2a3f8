public import Foundation
import NIOPosix
import PassBundle
import PassCrypto
import PassModel

/// One template as the issuer API lists it.
public struct TemplateSummary: Sendable, Equatable {
    /// The name the issuer API and campaigns use (the folder name, without `.pkpasstemplate`).
    public var name: String
    /// The content version: the first 16 hexadecimal digits of SHA-256 over every file's path and bytes, so any
    /// edit of `pass.json`, an image or a localization gives another version.
    public var contentVersion: String?
    /// The pass type identifier its passes get (its signing identity's certificate's).
    public var passTypeIdentifier: String?
    /// Its style (`eventTicket`, ...), when it has one.
    public var style: String?
    /// Why it cannot be used, when it cannot (the rest of the listing is still given).
    public var error: String?
}

extension PassIssuer {
    /// Every template under the templates folders, by name, as this process has loaded them (a template is read on
    /// its first use and kept).
    /// - Returns: The templates, sorted by name; one that does not load is listed with its error.
    public func templateSummaries() async throws -> [TemplateSummary] {
        let directories = templateSources.map(\.directory)
        let names = try await NIOThreadPool.singleton.runIfActive { () -> [String] in
            Set(directories.flatMap(Self.templateNames(in:))).sorted()
        }
        var summaries: [TemplateSummary] = []
        for name in names {
            try Task.checkCancellation()
            do {
                let entry = try await templateEntry(named: name)
                let template = entry.builder.template
                summaries.append(TemplateSummary(
                    name: name, contentVersion: entry.version,
                    passTypeIdentifier: entry.builder.passTypeIdentifier, style: template.pass.style?.rawValue))
            } catch is CancellationError {
                // Stopped (a server shutting down while it reads the templates): no template is at fault.
                throw CancellationError()
            } catch let error as IssuerError {
                summaries.append(TemplateSummary(name: name, error: Self.withoutFolders(error.description, directories)))
            } catch {
                summaries.append(TemplateSummary(name: name, error: Self.withoutFolders("template \(name) cannot be loaded: \(error)", directories)))
            }
        }
        return summaries
    }

    /// An error as API clients see it: file names relative to the templates folder (`broken/pass.json`), not the
    /// server's own paths.
    static func withoutFolders(_ message: String, _ directories: [URL]) -> String {
        directories.reduce(message) { text, directory in
            let path = directory.standardizedFileURL.path
            return text.replacingOccurrences(of: path.hasSuffix("/") ? path : path + "/", with: "")
                .replacingOccurrences(of: directory.path.hasSuffix("/") ? directory.path : directory.path + "/", with: "")
        }
    }

    /// The names of the templates in a folder: sub-folders (or `.pkpasstemplate` bundles) holding `pass.json`.
    /// - Parameter directory: A templates folder.
    /// - Returns: The names, unsorted; none when the folder cannot be read.
    public static func templateNames(in directory: URL) -> [String] {
        let manager = FileManager.default
        let entries = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        return Array(Set(entries.compactMap { entry -> String? in
            guard !entry.hasPrefix("."),
                  manager.fileExists(atPath: directory.appendingPathComponent(entry).appendingPathComponent("pass.json").path)
            else { return nil }
            let suffix = ".\(PassTemplate.designerBundleExtension)"
            return entry.hasSuffix(suffix) ? String(entry.dropLast(suffix.count)) : entry
        }).filter(TemplateLibrary.isValidName))
    }
}
