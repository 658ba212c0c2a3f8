public import Foundation
import PassCrypto

/// The files of a pass other than `pass.json` (images, `xx.lproj/…`), prepared once for signing many passes:
/// `manifest.json` with their hashes and a ZIP archive holding them, to which each pass adds its own
/// `pass.json`, `manifest.json` and `signature`. An order's files are prepared the same way with ``BundleFormat/order``.
public struct PassContents: Sendable {
    /// The files by relative path.
    public let files: [String: Data]
    /// The kind of bundle: which JSON file each bundle adds and which hash the manifest lists.
    public let format: BundleFormat
    /// ``files`` as the first entries of a ZIP archive, written once.
    let archive: ZipWriter.Prepared
    /// `manifest.json` of these files plus `pass.json`, encoded once with a placeholder for `pass.json`'s hash.
    private let manifestTemplate: Data
    /// Where the hex digits of the main JSON file's hash go in ``manifestTemplate``.
    private let passJSONHashOffset: Int

    /// Hashes and zips the files.
    /// - Parameters:
    ///   - files: Files by relative path; the main JSON file, `manifest.json` and `signature` are ignored.
    ///   - format: A pass (the default) or an order.
    public init(files: [String: Data], format: BundleFormat = .pass) throws {
        let kept = files.filter { !format.reservedNames.contains($0.key) }
        self.files = kept
        self.format = format
        let hashes = Manifest(files: kept, digest: format.digest).hashes
        let length = format.digest.hexLength
        self.archive = try ZipWriter.prepare(kept.sorted { $0.key < $1.key }.map { (path: $0.key, data: $0.value) })
        // Every hash has the same number of hex digits, so the manifest of any pass differs from this one only in those
        // bytes. Two encodings with different placeholders locate them without assuming anything about the encoder's layout.
        func manifest(passJSONHash: String) -> Data {
            var manifest = Manifest(files: [:])
            manifest.hashes = hashes.merging([format.mainFile: passJSONHash]) { _, own in own }
            return manifest.jsonData()
        }
        let zeros = manifest(passJSONHash: String(repeating: "0", count: length))
        let ones = manifest(passJSONHash: String(repeating: "1", count: length))
        let differing = zip(zeros.indices, zip(zeros, ones)).filter { $0.1.0 != $0.1.1 }.map(\.0)
        guard zeros.count == ones.count, differing.count == length, let first = differing.first,
            differing.last == first + length - 1
        else { throw PassBundleError(.io, "could not prepare manifest.json for the template's files") }
        self.manifestTemplate = zeros
        self.passJSONHashOffset = first - zeros.startIndex
    }

    /// `manifest.json` for a pass: these files' hashes and `pass.json`'s, the same bytes as
    /// ``Manifest/jsonData()`` of all of them, without encoding the template's hashes again for every pass.
    /// - Parameter passJSON: The pass's `pass.json` bytes (an order's `order.json` for ``BundleFormat/order``).
    /// - Returns: The manifest's JSON bytes.
    public func manifestJSON(passJSON: Data) -> Data {
        var data = manifestTemplate
        let hash = Hex.encode(format.digest.digest(passJSON))
        let start = data.startIndex + passJSONHashOffset
        data.replaceSubrange(start..<start + hash.utf8.count, with: hash.utf8)
        return data
    }

    /// A ZIP archive of ``files`` followed by `entries` (for a pass: `pass.json`, `manifest.json`, `signature`).
    /// - Parameter entries: Paths and contents to add, in order.
    /// - Returns: The archive's bytes.
    public func archive(adding entries: [(path: String, data: Data)]) throws -> Data {
        try ZipWriter.archive(archive, adding: entries)
    }
}
