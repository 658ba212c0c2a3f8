public import Foundation
import ZIPFoundation

/// The files of a `.pkpass`, read from its ZIP archive, with any layout problems found while reading.
public struct PassArchive: Sendable {
    /// File contents by path inside the archive.
    public var files: [String: Data]
    /// Layout problems: (path, message). Entries not at the root (other than `xx.lproj/` files) are reported here.
    public var layoutProblems: [(path: String, message: String)]

    /// Reads a `.pkpass`.
    /// - Parameters:
    ///   - data: The archive bytes.
    ///   - source: A name for error messages, such as the file path.
    public init(data: Data, source: String = ".pkpass") throws {
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw PassBundleError(.invalidArchive, "\(source): not a ZIP archive (a .pkpass is a ZIP file)")
        }
        var files: [String: Data] = [:]
        var problems: [(path: String, message: String)] = []
        for entry in archive {
            let path = entry.path
            if entry.type == .directory {
                if !Self.isLocalizationFolder(String(path.dropLast(path.hasSuffix("/") ? 1 : 0))) {
                    problems.append((path, "folder in the archive; only xx.lproj folders are allowed"))
                }
                continue
            }
            guard entry.type == .file else {
                problems.append((path, "not a regular file (symbolic link?)"))
                continue
            }
            if files[path] != nil {
                problems.append((path, "appears twice in the archive"))
                continue
            }
            var contents = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { contents.append($0) }
            } catch {
                throw PassBundleError(.invalidArchive, "\(source): \(path) could not be extracted: \(error)")
            }
            files[path] = contents
            let components = path.split(separator: "/", omittingEmptySubsequences: false)
            if path.hasPrefix("/") || components.contains("..") {
                problems.append((path, "unsafe path in the archive"))
            } else if components.count > 2 || (components.count == 2 && !Self.isLocalizationFolder(String(components[0]))) {
                let name = String(components.last ?? "")
                let hint = ["pass.json", "manifest.json", "signature"].contains(name)
                    ? "; \(name) must be at the archive root (zip the folder's contents, not the folder)" : ""
                problems.append((path, "file inside a folder that is not an xx.lproj localization\(hint)"))
            }
        }
        self.files = files
        self.layoutProblems = problems
    }

    /// Reads a `.pkpass` file.
    /// - Parameter path: The file's path.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PassBundleError(.io, "\(path): file not found or unreadable")
        }
        try self.init(data: data, source: path)
    }

    /// The bundle files other than `pass.json`, `manifest.json` and `signature`, as the validator wants them.
    public var contentFiles: [String: Data] {
        files.filter { $0.key != "pass.json" && !PassSigner.reservedNames.contains($0.key) }
    }

    static func isLocalizationFolder(_ name: String) -> Bool {
        name.hasSuffix(".lproj") && name.count > 6 && !name.contains("/")
    }
}
