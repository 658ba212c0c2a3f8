public import Foundation
import PassCrypto
import ZIPFoundation

/// The files of a pass other than `pass.json` (images, `xx.lproj/…`), prepared once for signing many passes:
/// `manifest.json` with their SHA-1 hashes and a ZIP archive holding them, to which each pass adds its own
/// `pass.json`, `manifest.json` and `signature`.
public struct PassContents: Sendable {
    /// The files by relative path.
    public let files: [String: Data]
    /// A ZIP archive of ``files``.
    let archive: Data
    /// `manifest.json` of these files plus `pass.json`, encoded once with a placeholder for `pass.json`'s hash.
    private let manifestTemplate: Data
    /// Where the 40 hex digits of `pass.json`'s SHA-1 go in ``manifestTemplate``.
    private let passJSONHashOffset: Int

    /// Hashes and zips the files.
    /// - Parameter files: Files by relative path; `pass.json`, `manifest.json` and `signature` are ignored.
    public init(files: [String: Data]) throws {
        let kept = files.filter { $0.key != "pass.json" && !PassSigner.reservedNames.contains($0.key) }
        self.files = kept
        let hashes = Manifest(files: kept).hashes
        self.archive = try ZipWriter.archive(kept.sorted { $0.key < $1.key })
        // Every SHA-1 is 40 hex digits, so the manifest of any pass differs from this one only in those 40 bytes. Two
        // encodings with different placeholders locate them without assuming anything about the encoder's layout.
        func manifest(passJSONHash: String) -> Data {
            var manifest = Manifest(files: [:])
            manifest.hashes = hashes.merging(["pass.json": passJSONHash]) { _, own in own }
            return manifest.jsonData()
        }
        let zeros = manifest(passJSONHash: String(repeating: "0", count: 40))
        let ones = manifest(passJSONHash: String(repeating: "1", count: 40))
        let differing = zip(zeros.indices, zip(zeros, ones)).filter { $0.1.0 != $0.1.1 }.map(\.0)
        guard zeros.count == ones.count, differing.count == 40, let first = differing.first, differing.last == first + 39
        else { throw PassBundleError(.io, "could not prepare manifest.json for the template's files") }
        self.manifestTemplate = zeros
        self.passJSONHashOffset = first - zeros.startIndex
    }

    /// `manifest.json` for a pass: these files' hashes and `pass.json`'s, the same bytes as
    /// ``Manifest/jsonData()`` of all of them, without encoding the template's hashes again for every pass.
    /// - Parameter passJSON: The pass's `pass.json` bytes.
    /// - Returns: The manifest's JSON bytes.
    public func manifestJSON(passJSON: Data) -> Data {
        var data = manifestTemplate
        let hash = Hex.encode(Digest.sha1(passJSON))
        let start = data.startIndex + passJSONHashOffset
        data.replaceSubrange(start..<start + 40, with: hash.utf8)
        return data
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
