public import Foundation

/// A pass template: a folder holding `pass.json`, images and `xx.lproj` localisations, to which
/// ``PassData`` documents are applied to make individual passes.
public struct PassTemplate: Sendable {
    /// The template's name (its folder name, without a `.pkpasstemplate` extension).
    public var name: String
    /// The raw `pass.json` bytes. Read-only: applying data works on a tree parsed once from these bytes.
    public private(set) var passJSON: Data
    /// `pass.json` decoded.
    public private(set) var pass: Pass
    /// Every other file by relative path (`icon.png`, `fr.lproj/pass.strings`, `fr.lproj/logo@2x.png`);
    /// hidden files, `manifest.json` and `signature` are skipped.
    public var files: [String: Data]

    /// `pass.json` parsed once, so applying data does not parse it again.
    var root: [String: JSONValue]
    /// Where each field key sits in `root`.
    var fieldIndex: FieldIndex
    /// ``pass`` encoded member by member, for ``passJSON(for:)``; `nil` if a member cannot be encoded.
    let jsonCache: PassJSONCache?

    private static let skippedFiles: Set<String> = ["pass.json", "manifest.json", "signature"]

    /// Loads a template folder, or a Pass Designer `.pkpasstemplate` bundle (without Designer's `tooling.json`
    /// and the `_id` keys it writes into fields, actions and seats).
    /// - Parameter directory: The folder; its last path component (without `.pkpasstemplate`) becomes ``name``.
    /// - Throws: ``PassModelError`` naming the file: `templateNotFound` for a missing folder or `pass.json`,
    ///   `invalidJSON` or `invalidPass` (with the decoding reason) for a bad `pass.json`, `unreadableFile`.
    public init(directory: URL) throws {
        let manager = FileManager.default
        let folder = directory.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            throw PassModelError(.templateNotFound, "template folder \(folder.path) does not exist")
        }
        guard isDirectory.boolValue else {
            throw PassModelError(.templateNotFound, "template \(folder.path) is not a folder")
        }
        let passURL = folder.appendingPathComponent("pass.json")
        guard manager.fileExists(atPath: passURL.path) else {
            throw PassModelError(.templateNotFound, "template folder \(folder.path) has no pass.json")
        }
        let paths = try Self.listFiles(in: folder)
        var passJSON = try Self.read(passURL)
        // A Pass Designer bundle (.pkpasstemplate): Designer's own files and the _id keys it writes stay out of the pass.
        let isDesignerBundle = Self.isDesignerBundle(folder, files: paths)
        if isDesignerBundle {
            // Re-encoding below keeps one value of a key written twice: the original is checked first.
            if let duplicate = JSONDuplicateKeys.find(in: passJSON).first {
                throw PassModelError(.invalidPass, "\(passURL.path): \"\(duplicate.path)\" \(duplicate.message)")
            }
            do {
                passJSON = try Self.removingDesignerIdentifiers(from: passJSON)
            } catch let error as PassModelError {
                throw PassModelError(.invalidJSON, "\(passURL.path): invalid JSON: \(error.reason)")
            }
        }
        var files: [String: Data] = [:]
        for relativePath in paths where !Self.skippedFiles.contains(relativePath) {
            if isDesignerBundle, Self.designerFiles.contains(relativePath) { continue }
            files[relativePath] = try Self.read(folder.appendingPathComponent(relativePath))
        }
        try self.init(name: Self.templateName(of: folder), passJSON: passJSON, files: files, origin: passURL.path)
    }

    /// Creates a template from bytes in memory.
    /// - Parameters:
    ///   - name: The template's name, used in error messages.
    ///   - passJSON: The `pass.json` bytes.
    ///   - files: The other files by relative path.
    /// - Throws: ``PassModelError`` `invalidJSON` or `invalidPass` naming `pass.json` and the reason.
    public init(name: String, passJSON: Data, files: [String: Data] = [:]) throws {
        try self.init(name: name, passJSON: passJSON, files: files, origin: "\(name)/pass.json")
    }

    private init(name: String, passJSON: Data, files: [String: Data], origin: String) throws {
        let json: JSONValue
        do {
            json = try JSONValue(jsonData: passJSON)
        } catch let error as PassModelError {
            throw PassModelError(.invalidJSON, "\(origin): invalid JSON: \(error.reason)")
        }
        guard case .object(let root) = json else {
            throw PassModelError(.invalidPass, "\(origin): must be a JSON object, found \(json.kindName)")
        }
        let duplicates = JSONDuplicateKeys.find(in: passJSON)
        guard duplicates.isEmpty else {
            // Every other problem of the template is told with them (a missing icon, a wrong colour), as for a
            // pass.json that does not decode.
            let report = PassValidator().validate(passJSON: passJSON, files: files)
            let issues = report.errors + report.warnings
            let headline = duplicates.map { "\"\($0.path)\" \($0.message)" }.joined(separator: "; ")
            throw PassModelError(
                .invalidPass,
                "\(origin): \(headline); \(report.errors.count) error(s) and \(report.warnings.count) warning(s) in all:\n"
                    + issues.map { "  \($0)" }.joined(separator: "\n"),
                issues: issues)
        }
        do {
            pass = try Pass(jsonData: passJSON)
        } catch let error as PassModelError {
            throw Self.undecodable(passJSON, files: files, origin: origin, reason: error.reason)
        }
        self.name = name
        self.passJSON = passJSON
        self.files = files
        self.root = root
        fieldIndex = FieldIndex(root: root)
        jsonCache = try? PassJSONCache(template: pass)
    }

    /// The error for a `pass.json` that does not decode: every value of the wrong type with its path, and every other
    /// error and warning the validator finds in the rest of the pass (the mistyped values left out) and its files, at
    /// once, in the reason and in ``PassModelError/issues``.
    private static func undecodable(_ passJSON: Data, files: [String: Data], origin: String, reason: String)
        -> PassModelError
    {
        let report = PassValidator().validate(passJSON: passJSON, files: files)
        let errors = report.errors
        guard !errors.isEmpty else { return PassModelError(.invalidPass, "\(origin): \(reason)") }
        // The values of the wrong type are what stopped decoding; the validator reported each where it found it.
        let mistyped = errors.filter { $0.message.hasPrefix("expected ") || $0.message.contains("wrong type") }
        let headline = mistyped.count == 1 ? "\(mistyped[0].path): \(mistyped[0].message)"
            : mistyped.isEmpty ? reason : "\(mistyped.count) values of the wrong type"
        let warnings = report.warnings
        let issues = errors + warnings
        let summary = "\(errors.count) error\(errors.count == 1 ? "" : "s") and \(warnings.count) "
            + "warning\(warnings.count == 1 ? "" : "s") in all"
        return PassModelError(
            .invalidPass,
            "\(origin): \(headline); \(summary):\n" + issues.map { "  \($0)" }.joined(separator: "\n"),
            issues: issues)
    }

    package static func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw PassModelError(.unreadableFile, "cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// Relative paths of the regular files under `folder`, skipping hidden files and folders.
    ///
    /// A symbolic link is followed only to a file or folder inside the template's own folder: one leading outside it
    /// (a key, `/etc/passwd`) would put that file into every pass signed from the template, so it is refused naming
    /// the link (not where it leads), as are a link to nothing, a link to a folder that holds it (a loop) and a file
    /// that is not a regular file (a pipe would hold the load until something writes to it).
    package static func listFiles(in folder: URL) throws -> [String] {
        let manager = FileManager.default
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        var result: [String] = []
        // `ancestors`: the real paths of the folders being walked, from the template's down.
        func walk(_ relative: String, ancestors: [String]) throws {
            let url = relative.isEmpty ? folder : folder.appendingPathComponent(relative)
            let names: [String]
            do {
                names = try manager.contentsOfDirectory(atPath: url.path)
            } catch {
                throw PassModelError(.unreadableFile, "cannot list \(url.path): \(error.localizedDescription)")
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : "\(relative)/\(name)"
                let path = folder.appendingPathComponent(child).path
                var isDirectory: ObjCBool = false
                let exists = manager.fileExists(atPath: path, isDirectory: &isDirectory)
                let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
                if (try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink {
                    // Where a link leads is not named: messages reach the issuer API's clients.
                    guard exists else {
                        throw PassModelError(.unreadableFile, "\(path) is a symbolic link to nothing (its target does not exist)")
                    }
                    guard real == root || real.hasPrefix(root + "/") else {
                        throw PassModelError(
                            .unreadableFile,
                            "\(path) is a symbolic link leading outside the template's folder: a template's files must be "
                                + "inside its folder")
                    }
                }
                guard exists else { continue }
                if isDirectory.boolValue {
                    guard !ancestors.contains(real) else {
                        throw PassModelError(
                            .unreadableFile, "\(path) is a symbolic link to a folder that holds it (a loop)")
                    }
                    try walk(child, ancestors: ancestors + [real])
                } else if (try? manager.attributesOfItem(atPath: real)[.type] as? FileAttributeType) != .typeRegular {
                    // Reading a pipe would wait for a writer; a device has no end.
                    throw PassModelError(.unreadableFile, "\(path) is not a regular file (a pipe, socket or device)")
                } else {
                    result.append(child)
                }
            }
        }
        try walk("", ancestors: [root])
        return result
    }
}
