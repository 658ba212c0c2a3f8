public import Foundation
import ZIPFoundation

/// A `.pkpasses` file: several signed passes in one ZIP archive, which Wallet offers to add together
/// (served as `application/vnd.apple.pkpasses`).
///
/// Apple's limits are checked when the bundle is made: 1 to 10 passes, at most 150 MB in all. Each entry
/// must be a `.pkpass` archive with a `pass.json`, a `manifest.json` and a `signature` at its root.
public struct PassesBundle: Sendable {
    /// The media type of a `.pkpasses` download.
    public static let mediaType = "application/vnd.apple.pkpasses"
    /// The most passes Wallet takes from one bundle.
    public static let maximumPassCount = 10
    /// The largest bundle Wallet takes: 150 MB.
    public static let maximumSize = 150_000_000

    /// The passes, in order: an entry name ending in `.pkpass` and the signed pass's bytes.
    public let passes: [(name: String, data: Data)]

    /// Checks the passes against Apple's limits and the `.pkpass` layout.
    /// - Parameter passes: Each pass's entry name (such as `E-0001.pkpass`; a name without the extension gets
    ///   it) and bytes.
    /// - Throws: ``PassBundleError`` `invalidArchive` naming every problem: no passes or more than 10, a name used
    ///   twice or containing a `/`, an entry that is not a signed `.pkpass`, a total above 150 MB.
    public init(passes: [(name: String, data: Data)]) throws {
        var problems: [String] = []
        if passes.isEmpty { problems.append("a .pkpasses bundle needs at least one pass") }
        if passes.count > Self.maximumPassCount {
            problems.append("Wallet takes at most \(Self.maximumPassCount) passes from one bundle; found \(passes.count)")
        }
        var named: [(name: String, data: Data)] = []
        var seen: Set<String> = []
        for (name, data) in passes {
            let entry = name.hasSuffix(".pkpass") ? name : name + ".pkpass"
            if entry.contains("/") || entry == ".pkpass" {
                problems.append("\(name): an entry name must be a plain file name")
            } else if !seen.insert(entry).inserted {
                problems.append(name == entry ? "\(entry): two passes have this name" : "\(name): two passes would be stored as \(entry)")
            }
            // Named as the caller named it (the user's file), not as it would be stored.
            if let problem = Self.problem(withPass: data) { problems.append("\(name): \(problem)") }
            named.append((entry, data))
        }
        let total = passes.reduce(0) { $0 + $1.data.count }
        if total > Self.maximumSize {
            problems.append("Wallet takes at most 150 MB in one bundle; these passes are \(total) bytes")
        }
        guard problems.isEmpty else { throw PassBundleError(.invalidArchive, problems.joined(separator: "\n")) }
        self.passes = named
    }

    /// Reads a `.pkpasses` archive.
    /// - Parameter data: The archive's bytes.
    /// - Throws: ``PassBundleError`` `invalidArchive` when it is not a ZIP of signed passes within Apple's limits.
    public init(data: Data) throws {
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw PassBundleError(.invalidArchive, ".pkpasses: not a ZIP archive")
        }
        var passes: [(name: String, data: Data)] = []
        for entry in archive where entry.type == .file {
            guard entry.uncompressedSize <= Int64(Self.maximumSize) else {
                throw PassBundleError(.invalidArchive, "\(entry.path): larger than a bundle may be")
            }
            var bytes = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { bytes.append($0) }
            } catch {
                throw PassBundleError(.invalidArchive, "\(entry.path): could not be read: \(error)")
            }
            passes.append((entry.path, bytes))
        }
        try self.init(passes: passes)
    }

    /// The `.pkpasses` archive: every pass stored (a `.pkpass` is already compressed) at the root, in order.
    /// - Returns: The ZIP bytes.
    /// - Throws: ``PassBundleError`` `io` when the archive cannot be written.
    public func archive() throws -> Data {
        try ZipWriter.archive(passes.map { (key: $0.name, value: $0.data) })
    }

    /// Why `data` is not a signed `.pkpass`, or `nil`.
    private static func problem(withPass data: Data) -> String? {
        // A ZIP starts with a local file header and ends with its end-of-central-directory record within the last
        // 65,557 bytes. Anything else is refused here, before the archive reader scans it whole for that record.
        let endRecordSpan = 22 + Int(UInt16.max)
        guard data.starts(with: [0x50, 0x4B, 0x03, 0x04]),
              data.suffix(endRecordSpan).range(of: Data([0x50, 0x4B, 0x05, 0x06])) != nil
        else { return "not a .pkpass (ZIP) archive" }
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            return "not a .pkpass (ZIP) archive"
        }
        let missing = ["pass.json", "manifest.json", "signature"].filter { archive[$0] == nil }
        guard missing.isEmpty else { return "not a signed pass: no \(missing.joined(separator: ", "))" }
        return nil
    }
}
