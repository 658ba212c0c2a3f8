public import Foundation
public import PassCrypto
import OrderModel
import PassModel

/// Checks an `.order` the way Wallet does and reports every reason it would not open: archive layout, SHA-256 manifest,
/// signature and chain, the signer's Order Type ID and team, and ``OrderValidator``'s findings on `order.json`.
public struct OrderVerifier: Sendable {
    private let verifier: PassVerifier

    /// Creates a verifier.
    /// - Parameters:
    ///   - wwdr: The expected WWDR intermediate; the one embedded in the signature is used when `nil`.
    ///   - root: A trusted root: when given, the signer's chain must lead to it.
    ///   - now: The time for certificate validity (`nil`: now).
    public init(wwdr: Certificate? = nil, root: Certificate? = nil, now: Date? = nil) {
        verifier = PassVerifier(wwdr: wwdr, root: root, now: now)
    }

    /// Verifies an `.order` held in memory.
    /// - Parameters:
    ///   - data: The archive bytes.
    ///   - source: A name for messages.
    /// - Returns: The report; check ``PassVerificationReport/wouldOpen``.
    public func verify(data: Data, source: String = ".order") -> PassVerificationReport {
        verify(source: source) { try PassArchive(data: data, source: source, format: .order) }
    }

    /// Verifies an `.order` file, reading its entries as streams.
    /// - Parameter path: The file's path.
    /// - Returns: The report; check ``PassVerificationReport/wouldOpen``.
    public func verify(contentsOf path: String) -> PassVerificationReport {
        verify(source: path) { try PassArchive(contentsOf: path, format: .order) }
    }

    private func verify(source: String, reading read: () throws -> PassArchive) -> PassVerificationReport {
        verifier.verifyBundle(source: source, format: .order, reading: read, validate: { orderJSON, files in
            OrderValidator().validate(orderJSON: orderJSON, files: files).issues
        }, identity: { signer, orderJSON in
            let object = try? JSONSerialization.jsonObject(with: orderJSON) as? [String: Any]
            return OrderCertificateIdentity(certificate: signer)
                .problems(orderTypeIdentifier: object?["orderTypeIdentifier"] as? String)
                .map { ValidationIssue(severity: .error, path: $0.path, message: $0.message) }
        })
    }
}
