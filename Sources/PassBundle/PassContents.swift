public import Foundation
import ZIPFoundation

/// The files of a pass other than `pass.json` (images, `xx.lproj/…`), prepared once for signing many passes:
/// their SHA-1 hashes for the manifest and a ZIP archive holding them, to which each pass adds its own
/// `pass.json`, `manifest.json` and `signature`.
public struct PassContents: Sendable {
    /// The files by relative path.
    public let files: [String: Data]
    /// Lower-case hex SHA-1 by relative path.
    let hashes: [String: String]
    /// A ZIP archive of ``files``.
    let archive: Data

    /// Hashes and zips the files.
    /// - Parameter files: Files by relative path; `pass.json`, `manifest.json` and `signature` are ignored.
    public init(files: [String: Data]) throws {
        let kept = files.filter { $0.key != "pass.json" && !PassSigner.reservedNames.contains($0.key) }
        self.files = kept
        self.hashes = Manifest(files: kept).hashes
        self.archive = try ZipWriter.archive(kept.sorted { $0.key < $1.key })
    }

    /// A ZIP archive of ``files`` followed by `entries` (for a pass: `pass.json`, `manifest.json`, `signature`).
    /// - Parameter entries: Paths and contents to add, in order.
    /// - Returns: The archive's bytes.
    public func archive(adding entries: [(path: String, data: Data)]) throws -> Data {
        try ZipWriter.append(entries.map { (key: $0.path, value: $0.data) }, to: archive)
    }
}

/// Writes ZIP archives through ZIPFoundation. Entries are stored, not deflated: PNGs are already compressed and the
/// JSON files are a few kilobytes, while a deflate stream per entry would cost more than the rest of the archive.
enum ZipWriter {
    /// A new archive of `entries`, in order.
    static func archive(_ entries: [(key: String, value: Data)]) throws -> Data {
        try append(entries, to: nil)
    }

    /// Adds `entries` to an existing in-memory archive (or a new one when `base` is `nil`) and returns the bytes.
    static func append(_ entries: [(key: String, value: Data)], to base: Data?) throws -> Data {
        let archive: Archive
        do {
            archive = try base.map { try Archive(data: $0, accessMode: .update) } ?? Archive(data: Data(), accessMode: .create)
        } catch {
            throw PassBundleError(.io, "could not open the archive for writing: \(error)")
        }
        let date = Date()
        for (path, data) in entries {
            do {
                try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                                     compressionMethod: .none, bufferSize: max(data.count, 1)) { position, size in
                    data.subdata(in: Data.Index(position)..<Data.Index(position) + size)
                }
            } catch {
                throw PassBundleError(.io, "could not add \(path) to the archive: \(error)")
            }
        }
        guard let bytes = archive.data else { throw PassBundleError(.io, "the archive produced no data") }
        return bytes
    }
}
