public import Foundation
import PassCrypto

/// `manifest.json`: the SHA-1 of every file in the bundle except itself and `signature`.
public struct Manifest: Sendable, Equatable {
    /// Lower-case hex SHA-1 by relative path.
    public var hashes: [String: String]

    /// Hashes every file.
    /// - Parameter files: Bundle files by relative path, including `pass.json`.
    public init(files: [String: Data]) {
        var hashes: [String: String] = [:]
        hashes.reserveCapacity(files.count)
        for (path, data) in files { hashes[path] = Hex.encode(Digest.sha1(data)) }
        self.hashes = hashes
    }

    /// Parses `manifest.json`.
    /// - Parameter data: Its bytes.
    public init(jsonData data: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw PassBundleError(.invalidArchive, "manifest.json: not a JSON object")
        }
        var hashes: [String: String] = [:]
        for (path, value) in object {
            guard let hash = value as? String else {
                throw PassBundleError(.invalidArchive, "manifest.json: the value for \"\(path)\" is not a string")
            }
            hashes[path] = hash.lowercased()
        }
        self.hashes = hashes
    }

    /// The manifest's JSON bytes with sorted keys, so equal bundles sign equal bytes.
    public func jsonData() -> Data {
        // Encoding a [String: String] cannot fail.
        (try? Self.encoder.encode(hashes)) ?? Data("{}".utf8)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }()
}
