public import Foundation
import PassCrypto
import PassModel
import ZIPFoundation
import Validation

/// The files of a `.pkpass` (or, with ``BundleFormat/order``, an `.order`), read from its ZIP archive, with any
/// layout problems found while reading.
///
/// Every entry is read as a stream and hashed (SHA-1 for a pass, SHA-256 for an order) as it goes; only entries up to ``maximumEntrySize`` are kept in
/// memory. A larger entry is reported in ``layoutProblems`` and its hash is still known, so memory does not grow with
/// the size of an entry.
public struct PassArchive: Sendable {
    /// The largest entry read into memory: 16 MiB. Wallet passes are meant to be small (Apple recommends keeping a
    /// whole pass well under a few megabytes); anything larger is reported, not loaded.
    public static let maximumEntrySize = PassValidator.maximumFileSize

    /// File contents by path inside the archive (entries larger than the limit are missing here).
    public var files: [String: Data]
    /// The lower-case hex hash of every regular file entry by path, loaded or not.
    public var hashes: [String: String]
    /// A pass or an order.
    public let format: BundleFormat
    /// Layout problems: (path, message). Entries not at the root (other than `xx.lproj/` files) and entries too large
    /// to load are reported here.
    public var layoutProblems: [(path: String, message: String)]

    /// Reads a `.pkpass` held in memory.
    /// - Parameters:
    ///   - data: The archive bytes.
    ///   - source: A name for error messages, such as the file path.
    ///   - maximumEntrySize: The largest entry kept in memory.
    ///   - format: A pass (the default) or an order.
    public init(data: Data, source: String = ".pkpass", maximumEntrySize: Int = PassArchive.maximumEntrySize,
                format: BundleFormat = .pass) throws {
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw PassBundleError(.invalidArchive, "\(source): not a ZIP archive (a .\(format.fileExtension) is a ZIP file)")
        }
        try self.init(archive: archive, source: source, maximumEntrySize: maximumEntrySize, format: format)
    }

    /// Reads a `.pkpass` file, streaming its entries from disk.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - maximumEntrySize: The largest entry kept in memory.
    ///   - format: A pass (the default) or an order.
    public init(contentsOf path: String, maximumEntrySize: Int = PassArchive.maximumEntrySize,
                format: BundleFormat = .pass) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: path)
        else {
            throw PassBundleError(.io, "\(path): \(FileReading.problem(at: path))")
        }
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw PassBundleError(.invalidArchive, "\(path): not a ZIP archive (a .\(format.fileExtension) is a ZIP file)")
        }
        try self.init(archive: archive, source: path, maximumEntrySize: maximumEntrySize, format: format)
    }

    private init(archive: Archive, source: String, maximumEntrySize: Int, format: BundleFormat) throws {
        var files: [String: Data] = [:]
        var hashes: [String: String] = [:]
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
            if hashes[path] != nil {
                problems.append((path, "appears twice in the archive"))
                continue
            }
            let digest = DigestStream(format.digest)
            var contents: Data? = Data()
            var size = 0
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    digest.update(chunk)
                    size += chunk.count
                    if size > maximumEntrySize {
                        contents = nil
                    } else {
                        contents?.append(chunk)
                    }
                }
            } catch {
                throw PassBundleError(.invalidArchive, "\(source): \(path) could not be extracted: \(error)")
            }
            hashes[path] = Hex.encode(digest.finish())
            if let contents {
                files[path] = contents
            } else {
                problems.append((path, "\(size) bytes: larger than the \(maximumEntrySize >> 20) MiB an entry of a \(format.noun) may "
                    + "have here, so it was hashed but not read"))
            }
            let components = path.split(separator: "/", omittingEmptySubsequences: false)
            if path.hasPrefix("/") || components.contains("..") {
                problems.append((path, "unsafe path in the archive"))
            } else if components.contains(".") || components.contains("") {
                // `./pass.json` (tar-style names): not in a folder, but not the name Wallet looks for either.
                let plain = components.filter { !$0.isEmpty && $0 != "." }.joined(separator: "/")
                problems.append((path, "stored as \"\(path)\": Wallet finds files by their exact names, so it must be "
                    + "stored as \"\(plain)\" (zip from inside the folder: cd folder && zip -r ../name.\(format.fileExtension) *)"))
            } else if components.count > 2 || (components.count == 2 && !Self.isLocalizationFolder(String(components[0]))) {
                let name = String(components.last ?? "")
                let hint = format.reservedNames.contains(name)
                    ? "; \(name) must be at the archive root (zip the folder's contents, not the folder)" : ""
                problems.append((path, "file inside a folder that is not an xx.lproj localization\(hint)"))
            }
        }
        self.files = files
        self.hashes = hashes
        self.layoutProblems = problems
        self.format = format
    }

    /// The bundle files other than `pass.json` (or `order.json`), `manifest.json` and `signature`, as the validator
    /// wants them.
    public var contentFiles: [String: Data] {
        files.filter { !format.reservedNames.contains($0.key) }
    }

    static func isLocalizationFolder(_ name: String) -> Bool {
        name.hasSuffix(".lproj") && name.count > 6 && !name.contains("/")
    }
}
