import Foundation
@testable import PassBundle

/// Builds deliberately broken archives with the bundle's own ZIP writer.
enum PassSignerTestHelper {
    /// `files` zipped at their paths, `pass.json` (or `first`) first and `manifest.json`, `signature` last, as a signed
    /// bundle is laid out.
    static func zip(_ files: [String: Data], first name: String = "pass.json") throws -> Data {
        let first = files[name].map { [(key: name, value: $0)] } ?? []
        let middle = files.filter { $0.key != name && !PassSigner.reservedNames.contains($0.key) }.sorted { $0.key < $1.key }
        let last = ["manifest.json", "signature"].compactMap { name in files[name].map { (key: name, value: $0) } }
        return try ZipWriter.archive(first + middle + last)
    }
}
