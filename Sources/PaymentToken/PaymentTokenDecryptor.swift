internal import Crypto
internal import _CryptoExtras
public import Foundation

/// Decrypts Apple Pay payment tokens with the merchant's payment-processing keys.
///
/// EC_v1: ECDH on P-256 between the merchant key and `header.ephemeralPublicKey`, Apple's KDF (NIST SP 800-56A
/// single-step with SHA-256, mixing in the merchant identifier hash), then AES-256-GCM with a 16-byte zero IV.
/// RSA_v1: RSA-OAEP-SHA256 unwraps `header.wrappedKey`, then AES-128-GCM with the same IV.
/// Decryption does not check the signature; run ``PaymentTokenVerifier`` first.
public struct PaymentTokenDecryptor: Sendable {
    /// Every current merchant key (several while rotating certificates); the token's `publicKeyHash` picks one.
    public var merchantKeys: [MerchantKey]
    /// The merchant identifier hash for the EC_v1 KDF.
    public var merchantIdentifier: MerchantIdentifier

    /// Creates a decryptor.
    /// - Parameters:
    ///   - merchantKeys: The merchant payment-processing keys.
    ///   - merchantIdentifier: The merchant identifier (from the merchant certificate or the merchant ID).
    public init(merchantKeys: [MerchantKey], merchantIdentifier: MerchantIdentifier) {
        self.merchantKeys = merchantKeys
        self.merchantIdentifier = merchantIdentifier
    }

    /// Decrypts `data` and parses the payment data.
    /// - Parameter token: The token.
    /// - Returns: The payment data (its description never shows the card number or cryptogram).
    /// - Throws: ``PaymentTokenError`` (``PaymentTokenError/Code/noMatchingKey``,
    ///   ``PaymentTokenError/Code/decryptionFailed``, ``PaymentTokenError/Code/malformedPaymentData``, ...).
    public func decrypt(_ token: ApplePayPaymentToken) throws -> DecryptedPaymentData {
        try DecryptedPaymentData(jsonData: try decryptedBytes(of: token))
    }

    /// Decrypts `data` and returns the plaintext bytes as Apple produced them (UTF-8 JSON).
    /// - Parameter token: The token.
    /// - Returns: The plaintext.
    public func decryptedBytes(of token: ApplePayPaymentToken) throws -> Data {
        guard let key = merchantKeys.first(where: { $0.publicKeyHash == token.header.publicKeyHash }) else {
            throw PaymentTokenError.noMatchingKey(publicKeyHash: token.header.publicKeyHashBase64,
                                                  available: merchantKeys.map(\.publicKeyHashBase64))
        }
        switch (token.version, key.backing) {
        case (.ecV1, .ec(let privateKey)):
            guard let ephemeral = token.header.ephemeralPublicKey else {
                throw PaymentTokenError.malformedToken(field: "header.ephemeralPublicKey", "is missing")
            }
            let publicKey: P256.KeyAgreement.PublicKey
            do {
                publicKey = try P256.KeyAgreement.PublicKey(derRepresentation: ephemeral)
            } catch {
                throw PaymentTokenError.malformedToken(field: "header.ephemeralPublicKey", "is not a P-256 public key")
            }
            let sharedSecret: Data
            do {
                sharedSecret = try privateKey.sharedSecretFromKeyAgreement(with: publicKey).withUnsafeBytes { Data($0) }
            } catch {
                throw PaymentTokenError(.decryptionFailed, "header.ephemeralPublicKey: key agreement failed (\(error))",
                                        field: "header.ephemeralPublicKey")
            }
            let symmetricKey = AppleKDF.symmetricKey(sharedSecret: sharedSecret, merchantIdentifierHash: merchantIdentifier.hash)
            return try AppleKDF.open(token.data, using: symmetricKey)
        case (.rsaV1, .rsa(let privateKey)):
            guard let wrappedKey = token.header.wrappedKey else {
                throw PaymentTokenError.malformedToken(field: "header.wrappedKey", "is missing")
            }
            let keyBytes: Data
            do {
                keyBytes = try privateKey.key.decrypt(wrappedKey, padding: .PKCS1_OAEP_SHA256)
            } catch {
                throw PaymentTokenError(.decryptionFailed,
                                        "header.wrappedKey: RSA-OAEP-SHA256 unwrapping with the merchant key failed",
                                        field: "header.wrappedKey")
            }
            guard [16, 32].contains(keyBytes.count) else {
                throw PaymentTokenError(.decryptionFailed, "header.wrappedKey: the unwrapped key is \(keyBytes.count) bytes, "
                                            + "not an AES key", field: "header.wrappedKey")
            }
            return try AppleKDF.open(token.data, using: SymmetricKey(data: keyBytes))
        default:
            throw PaymentTokenError(.decryptionFailed, "version: a \(token.version.rawValue) token cannot be decrypted with the "
                                        + "\(key.algorithm.rawValue) key whose hash it names", field: "version")
        }
    }
}

/// Apple's key derivation and the AES-GCM step both versions share.
enum AppleKDF {
    /// `0x0D || "id-aes256-GCM" || "Apple"`: the algorithm identifier and party U info of Apple's KDF.
    static let otherInfoPrefix = Data([0x0D]) + Data("id-aes256-GCM".utf8) + Data("Apple".utf8)
    /// GCM IV: 16 zero bytes.
    static let nonceBytes = Data(count: 16)

    /// NIST SP 800-56A single-step KDF with SHA-256: SHA256(00000001 || Z || otherInfo || merchant id hash).
    static func symmetricKey(sharedSecret: Data, merchantIdentifierHash: Data) -> SymmetricKey {
        SymmetricKey(data: symmetricKeyBytes(sharedSecret: sharedSecret, merchantIdentifierHash: merchantIdentifierHash))
    }

    /// The derived key's 32 bytes.
    static func symmetricKeyBytes(sharedSecret: Data, merchantIdentifierHash: Data) -> Data {
        var hasher = SHA256()
        hasher.update(data: Data([0, 0, 0, 1]))
        hasher.update(data: sharedSecret)
        hasher.update(data: otherInfoPrefix)
        hasher.update(data: merchantIdentifierHash)
        return Data(hasher.finalize())
    }

    /// AES-GCM decryption of ciphertext || 16-byte tag with the zero IV and no additional data.
    static func open(_ data: Data, using key: SymmetricKey) throws -> Data {
        guard data.count > 16 else {
            throw PaymentTokenError.malformedToken(field: "data", "is too short to hold a ciphertext and a GCM tag")
        }
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonceBytes), ciphertext: data.dropLast(16),
                                            tag: data.suffix(16))
            return try AES.GCM.open(box, using: key)
        } catch {
            throw PaymentTokenError(.decryptionFailed, "data: AES-GCM authentication failed; the merchant identifier or key "
                                        + "is wrong, or the data was altered", field: "data")
        }
    }

    /// AES-GCM decryption with a key given as bytes.
    static func open(_ data: Data, keyBytes: Data) throws -> Data {
        try open(data, using: SymmetricKey(data: keyBytes))
    }

    /// AES-GCM encryption with the zero IV: ciphertext || tag.
    static func seal(_ plaintext: Data, using key: SymmetricKey) throws -> Data {
        let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: nonceBytes))
        return box.ciphertext + box.tag
    }
}
