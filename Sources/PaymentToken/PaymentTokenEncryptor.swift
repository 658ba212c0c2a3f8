internal import Crypto
internal import _CryptoExtras
public import Foundation

/// Encrypts payment data the way an Apple device does, producing unsigned tokens for tests and sandboxes.
///
/// The result has an empty `signature`: sign ``ApplePayPaymentToken/signedContent`` with a CMS signer whose chain
/// the verifier trusts and store it in ``ApplePayPaymentToken/signature``.
public struct PaymentTokenEncryptor: Sendable {
    enum Recipient: Sendable {
        case ec(P256.KeyAgreement.PublicKey)
        /// The RSA public key's DER (swift-crypto's RSA public key is not `Sendable`).
        case rsa(Data)
    }

    let recipient: Recipient
    /// The merchant public key as DER SubjectPublicKeyInfo.
    public let merchantPublicKeyDER: Data
    /// The merchant identifier hash mixed into EC_v1 keys.
    public let merchantIdentifier: MerchantIdentifier

    /// Creates an encryptor for a merchant public key: P-256 gives EC_v1 tokens, RSA (2048 bits or more) RSA_v1.
    /// - Parameters:
    ///   - merchantPublicKeyDER: The merchant public key, DER SubjectPublicKeyInfo.
    ///   - merchantIdentifier: The merchant identifier.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/invalidMerchantKey``.
    public init(merchantPublicKeyDER: Data, merchantIdentifier: MerchantIdentifier) throws {
        if let key = try? P256.KeyAgreement.PublicKey(derRepresentation: merchantPublicKeyDER) {
            recipient = .ec(key)
        } else if (try? _RSA.Encryption.PublicKey(derRepresentation: merchantPublicKeyDER)) != nil {
            recipient = .rsa(merchantPublicKeyDER)
        } else {
            throw PaymentTokenError(.invalidMerchantKey, "the merchant public key is neither P-256 nor RSA of 2048 bits or more")
        }
        self.merchantPublicKeyDER = merchantPublicKeyDER
        self.merchantIdentifier = merchantIdentifier
    }

    /// Creates an encryptor for the public half of a merchant key.
    /// - Parameters:
    ///   - merchantKey: The merchant key.
    ///   - merchantIdentifier: The merchant identifier.
    public init(merchantKey: MerchantKey, merchantIdentifier: MerchantIdentifier) throws {
        try self.init(merchantPublicKeyDER: merchantKey.publicKeyDER, merchantIdentifier: merchantIdentifier)
    }

    /// Encrypts `plaintext` into an unsigned token.
    /// - Parameters:
    ///   - plaintext: The payment data JSON.
    ///   - transactionId: The transaction identifier bytes (random 32 bytes when `nil`).
    ///   - applicationData: The app's `applicationData`; its SHA-256 goes in `header.applicationData`.
    /// - Returns: The token with an empty signature.
    public func seal(_ plaintext: Data, transactionId: Data? = nil, applicationData: Data? = nil) throws -> ApplePayPaymentToken {
        let transaction = transactionId ?? SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        var header = ApplePayPaymentToken.Header(publicKeyHash: Data(SHA256.hash(data: merchantPublicKeyDER)),
                                                 transactionId: transaction,
                                                 applicationData: applicationData.map { Data(SHA256.hash(data: $0)) })
        let version: ApplePayPaymentToken.Version
        let data: Data
        switch recipient {
        case .ec(let merchantPublicKey):
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let sharedSecret = try ephemeral.sharedSecretFromKeyAgreement(with: merchantPublicKey).withUnsafeBytes { Data($0) }
            let key = AppleKDF.symmetricKey(sharedSecret: sharedSecret, merchantIdentifierHash: merchantIdentifier.hash)
            header.ephemeralPublicKey = ephemeral.publicKey.derRepresentation
            version = .ecV1
            data = try AppleKDF.seal(plaintext, using: key)
        case .rsa(let der):
            let merchantPublicKey = try _RSA.Encryption.PublicKey(derRepresentation: der)
            let key = SymmetricKey(size: .bits128)
            header.wrappedKey = try merchantPublicKey.encrypt(key.withUnsafeBytes { Data($0) }, padding: .PKCS1_OAEP_SHA256)
            version = .rsaV1
            data = try AppleKDF.seal(plaintext, using: key)
        }
        return ApplePayPaymentToken(version: version, data: data, signature: Data(), header: header)
    }
}
