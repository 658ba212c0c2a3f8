public import Foundation

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
    /// - Parameters:
    ///   - orderJSON: The `order.json` bytes; its `orderTypeIdentifier` must be the certificate's.
    ///   - files: Every other file by relative path (images, `xx.lproj/order.strings`).
    /// - Returns: The `.order` (ZIP) bytes.
    /// - Throws: ``PassBundleError`` `.identityMismatch` naming both identifiers when they differ.
    public func signedBundle(orderJSON: Data, files: [String: Data]) throws -> Data {
        let object = try? JSONSerialization.jsonObject(with: orderJSON) as? [String: Any]
        let problems = identity.problems(orderTypeIdentifier: object?["orderTypeIdentifier"] as? String)
        if !problems.isEmpty {
            throw PassBundleError(.identityMismatch, problems.map { "order.json \($0.path): \($0.message)" }
                .joined(separator: "\n"))
        }
        return try signer.sealedBundle(mainJSON: orderJSON, contents: PassContents(files: files, format: .order))
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
