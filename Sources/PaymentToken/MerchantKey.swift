internal import Crypto
internal import _CryptoExtras
public import Foundation
internal import PassCrypto
internal import Validation

/// A merchant payment-processing private key (P-256 EC for EC_v1 tokens, RSA for RSA_v1), identified by the
/// `publicKeyHash` Apple puts in each token it encrypts for that key.
///
/// Keep several when rotating the Apple Pay Payment Processing certificate: ``PaymentTokenDecryptor`` picks the
/// one whose hash the token names.
public struct MerchantKey: Sendable {
    /// The key types Apple Pay uses.
    public enum Algorithm: String, Sendable, Equatable {
        /// P-256 (EC_v1 tokens).
        case ecP256 = "EC P-256"
        /// RSA (RSA_v1 tokens).
        case rsa = "RSA"
    }

    enum Backing: Sendable {
        case ec(P256.KeyAgreement.PrivateKey)
        case rsa(RSAKey)
    }

    /// Holds swift-crypto's RSA key, which is not declared `Sendable` though it is immutable after creation
    /// (BoringSSL's RSA decryption does not mutate the key), so sharing it across tasks is safe.
    final class RSAKey: @unchecked Sendable {
        let key: _RSA.Encryption.PrivateKey
        init(_ key: _RSA.Encryption.PrivateKey) { self.key = key }
    }

    let backing: Backing
    /// The key type.
    public let algorithm: Algorithm
    /// The public key as DER SubjectPublicKeyInfo.
    public let publicKeyDER: Data
    /// SHA-256 of ``publicKeyDER``: the token's `header.publicKeyHash` for this key.
    public let publicKeyHash: Data

    /// ``publicKeyHash`` in Base64, as tokens carry it.
    public var publicKeyHashBase64: String { publicKeyHash.base64EncodedString() }

    /// Reads a private key from PEM or DER: PKCS#8 (`PRIVATE KEY`, EC or RSA), SEC1 (`EC PRIVATE KEY`) or PKCS#1
    /// (`RSA PRIVATE KEY`). Text before the PEM armor, such as OpenSSL's "Bag Attributes" lines, is skipped.
    /// - Parameters:
    ///   - data: The key bytes.
    ///   - source: A name for error messages, such as the file path.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/invalidMerchantKey``.
    public init(data: Data, source: String = "merchant key") throws {
        let pkcs8: String
        let description: String
        do {
            let key = try PrivateKey(data: data, source: source)
            pkcs8 = try key.pkcs8PEM()
            description = key.algorithmDescription
        } catch let error as PassCrypto.CryptoError {
            throw PaymentTokenError(.invalidMerchantKey, error.reason)
        }
        do {
            if description == "EC 256" {
                let key = try P256.KeyAgreement.PrivateKey(pemRepresentation: pkcs8)
                backing = .ec(key)
                algorithm = .ecP256
                publicKeyDER = key.publicKey.derRepresentation
            } else if description.hasPrefix("RSA ") {
                let key = try _RSA.Encryption.PrivateKey(pemRepresentation: pkcs8)
                backing = .rsa(RSAKey(key))
                algorithm = .rsa
                publicKeyDER = key.publicKey.derRepresentation
            } else {
                throw PaymentTokenError(.invalidMerchantKey,
                                        "\(source): a \(description) key; Apple Pay keys are P-256 EC or RSA")
            }
        } catch let error as PaymentTokenError {
            throw error
        } catch {
            throw PaymentTokenError(.invalidMerchantKey, "\(source): the \(description) key cannot be used (\(error))")
        }
        publicKeyHash = Data(SHA256.hash(data: publicKeyDER))
    }

    /// Reads a private key file (see ``init(data:source:)``).
    /// - Parameter path: The file's path.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/invalidMerchantKey``.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PaymentTokenError(.invalidMerchantKey, "\(path): \(FileReading.problem(at: path))")
        }
        try self.init(data: data, source: path)
    }
}
