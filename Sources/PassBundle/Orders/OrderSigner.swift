public import Foundation
import Synchronization

/// Turns `order.json` and its files into a signed Wallet order package (`.order`): `manifest.json` with the SHA-256 of
/// every file, `signature` (a detached CMS signature over the manifest's exact bytes, with the WWDR intermediate),
/// all entries at the archive root. The signing itself is ``PassSigner``'s; only the format and identity differ.
public struct OrderSigner: Sendable {
    /// The media type of an order package: `application/vnd.apple.finance.order`.
    public static let mediaType = BundleFormat.order.mediaType

    /// The credentials used.
    public var credentials: PassCredentials { signer.credentials }
    /// The Order Type ID and team the certificate signs for.
    public let identity: OrderCertificateIdentity
    private let signer: PassSigner
    private let preparedContents = PreparedOrderContents()

    /// Creates a signer.
    /// - Parameter credentials: Checked credentials of an Order Type ID certificate.
    /// - Throws: ``PassBundleError`` `.identityMismatch` when the certificate is not an Order Type ID certificate (a
    ///   Pass Type ID one, say) or names no team.
    public init(credentials: PassCredentials) throws {
        let identity = OrderCertificateIdentity(certificate: credentials.certificate)
        let problems = identity.problems(orderTypeIdentifier: nil)
        if !problems.isEmpty {
            throw PassBundleError(.identityMismatch, problems.map(\.message).joined(separator: "\n"))
        }
        self.identity = identity
        self.signer = try PassSigner(credentials: credentials)
    }

    /// Builds a signed order package in memory.
    ///
    /// The files are hashed and zipped once per template, not once per order: the signer keeps the last few sets of
    /// files it was given (a template's files are the same dictionary every time, so finding them is one comparison).
    /// - Parameters:
    ///   - orderJSON: The `order.json` bytes; its `orderTypeIdentifier` must be the certificate's.
    ///   - files: Every other file by relative path (images, `xx.lproj/order.strings`).
    /// - Returns: The `.order` (ZIP) bytes.
    /// - Throws: ``PassBundleError`` `.identityMismatch` naming both identifiers when they differ.
    public func signedBundle(orderJSON: Data, files: [String: Data]) throws -> Data {
        let named = try? JSONDecoder().decode(Identifier.self, from: orderJSON)
        return try signedBundle(orderJSON: orderJSON, files: files, orderTypeIdentifier: named?.orderTypeIdentifier)
    }

    /// The key of `order.json` the certificate must match; a value that is not a string reads as none.
    private struct Identifier: Decodable {
        var orderTypeIdentifier: String?
    }

    /// Signs `orderJSON` whose `orderTypeIdentifier` the caller has already read (``OrderBuilder`` has the decoded
    /// order), so it is not decoded again.
    func signedBundle(orderJSON: Data, files: [String: Data], orderTypeIdentifier: String?) throws -> Data {
        let problems = identity.problems(orderTypeIdentifier: orderTypeIdentifier)
        if !problems.isEmpty {
            throw PassBundleError(.identityMismatch, problems.map { "order.json \($0.path): \($0.message)" }
                .joined(separator: "\n"))
        }
        return try signer.sealedBundle(mainJSON: orderJSON, contents: preparedContents.contents(for: files))
    }

    /// Builds a signed order package and writes it through a temporary file and a rename, so a failure never leaves a
    /// partial `.order`.
    /// - Parameters:
    ///   - orderJSON: The `order.json` bytes.
    ///   - files: Every other file by relative path.
    ///   - url: The destination.
    public func writeSignedBundle(orderJSON: Data, files: [String: Data], to url: URL) throws {
        try PassSigner.writeAtomically(try signedBundle(orderJSON: orderJSON, files: files), to: url)
    }
}

/// The files of the last few templates an ``OrderSigner`` signed orders of, hashed and zipped (``PassContents``), so
/// each order hashes and zips only its own `order.json`, `manifest.json` and `signature`.
final class PreparedOrderContents: Sendable {
    /// How many sets of files are kept: more than the templates one server usually signs from.
    static let limit = 16
    private let recent = Mutex<[(files: [String: Data], contents: PassContents)]>([])

    /// The prepared contents of `files`, made now if they are not among the recent ones.
    /// - Parameter files: Files by relative path.
    /// - Returns: Their ``PassContents`` in the order format.
    func contents(for files: [String: Data]) throws -> PassContents {
        if let known = recent.withLock({ $0.first { $0.files == files }?.contents }) { return known }
        let contents = try PassContents(files: files, format: .order)
        recent.withLock { recent in
            guard !recent.contains(where: { $0.files == files }) else { return }
            if recent.count == Self.limit { recent.removeFirst() }
            recent.append((files, contents))
        }
        return contents
    }
}
