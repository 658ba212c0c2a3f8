internal import Crypto
public import Foundation
public import PassCrypto

/// The merchant identifier hash that Apple's KDF mixes into every EC_v1 symmetric key: SHA-256 of the merchant
/// identifier (e.g. `merchant.com.example`), which the Apple Pay Payment Processing certificate also carries in
/// extension 1.2.840.113635.100.6.32 as 64 hexadecimal digits.
public struct MerchantIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The Apple extension OID holding the merchant identifier hash in hexadecimal.
    public static let certificateExtensionOID = "1.2.840.113635.100.6.32"

    /// The 32-byte SHA-256 hash of the merchant identifier.
    public let hash: Data

    /// The hash of a merchant identifier string (SHA-256 of its UTF-8 bytes).
    /// - Parameter merchantID: e.g. `merchant.com.example`.
    public init(merchantID: String) {
        hash = Data(SHA256.hash(data: Data(merchantID.utf8)))
    }

    /// A hash given directly.
    /// - Parameter hash: The 32-byte hash.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/invalidMerchantIdentifier`` when not 32 bytes.
    public init(hash: Data) throws {
        guard hash.count == 32 else {
            throw PaymentTokenError(.invalidMerchantIdentifier, "the merchant identifier hash must be 32 bytes, not \(hash.count)")
        }
        self.hash = hash
    }

    /// The hash carried by a merchant (Apple Pay Payment Processing) certificate: the extension's value is a DER
    /// string of 64 hexadecimal digits, and those digits decoded are the hash itself.
    /// - Parameters:
    ///   - certificate: The merchant certificate.
    ///   - source: A name for error messages.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/invalidMerchantIdentifier``.
    public init(certificate: Certificate, source: String = "merchant certificate") throws {
        guard let text = certificate.extensionText(oid: Self.certificateExtensionOID) else {
            throw PaymentTokenError(.invalidMerchantIdentifier,
                                    "\(source): no merchant identifier extension \(Self.certificateExtensionOID); "
                                        + "is it an Apple Pay Payment Processing certificate?")
        }
        let digits = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard digits.count == 64, let hash = Hex.decode(digits) else {
            throw PaymentTokenError(.invalidMerchantIdentifier,
                                    "\(source): extension \(Self.certificateExtensionOID) is not 64 hexadecimal digits")
        }
        self.hash = hash
    }

    /// Reads the hash from a merchant certificate file (PEM or DER).
    /// - Parameter path: The file's path.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/invalidMerchantIdentifier``.
    public init(certificateAt path: String) throws {
        let certificate: Certificate
        do {
            certificate = try Certificate(contentsOf: path)
        } catch let error as PassCrypto.CryptoError {
            throw PaymentTokenError(.invalidMerchantIdentifier, error.reason)
        }
        try self.init(certificate: certificate, source: path)
    }

    /// The hash in upper-case hexadecimal.
    public var description: String { Hex.encode(hash, uppercase: true) }
}
