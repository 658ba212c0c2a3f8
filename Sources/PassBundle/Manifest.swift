public import Foundation
public import PassCrypto

/// `manifest.json`: the hash of every file in the bundle except itself and `signature` (SHA-1 for a pass, SHA-256 for
/// an order).
public struct Manifest: Sendable, Equatable {
    /// Lower-case hex hashes by relative path.
    public var hashes: [String: String]

    /// Hashes every file.
    /// - Parameters:
    ///   - files: Bundle files by relative path, including `pass.json` or `order.json`.
    ///   - digest: The hash: SHA-1 for passes, SHA-256 for orders.
    public init(files: [String: Data], digest: DigestAlgorithm = .sha1) {
        var hashes: [String: String] = [:]
        hashes.reserveCapacity(files.count)
        for (path, data) in files { hashes[path] = Hex.encode(digest.digest(data)) }
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
