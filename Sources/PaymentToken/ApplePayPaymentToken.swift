public import Foundation
import PassCrypto

/// An Apple Pay payment token: the encrypted, signed `paymentData` of a `PKPaymentToken`, plus the wrapper's
/// `transactionIdentifier` and `paymentMethod` when the JSON carried them.
///
/// Decode it with ``init(jsonData:)`` from the `paymentData` object itself, a `PKPaymentToken`
/// (`{"paymentData": ..., "paymentMethod": ..., "transactionIdentifier": ...}`) or a whole Apple Pay payment
/// (`{"token": {...}, "billingContact": ..., "shippingContact": ...}`).
public struct ApplePayPaymentToken: Sendable, Equatable {
    /// The encryption scheme of the token.
    public enum Version: String, Sendable, Equatable, CaseIterable {
        /// ECDH P-256, Apple's KDF and AES-256-GCM.
        case ecV1 = "EC_v1"
        /// RSA-OAEP-SHA256 key wrapping and AES-128-GCM.
        case rsaV1 = "RSA_v1"
    }

    /// The `header` object: what is needed to derive or unwrap the symmetric key.
    public struct Header: Sendable, Equatable {
        /// `ephemeralPublicKey` (EC_v1): the device's ephemeral P-256 public key, DER SubjectPublicKeyInfo.
        public var ephemeralPublicKey: Data?
        /// `wrappedKey` (RSA_v1): the AES key encrypted with the merchant's RSA public key.
        public var wrappedKey: Data?
        /// `publicKeyHash`: SHA-256 of the DER SubjectPublicKeyInfo of the merchant key used.
        public var publicKeyHash: Data
        /// `transactionId`: the transaction identifier, decoded from hexadecimal.
        public var transactionId: Data
        /// `applicationData`: SHA-256 of the app's `PKPaymentRequest.applicationData`, decoded from hexadecimal.
        public var applicationData: Data?

        /// Creates a header.
        /// - Parameters:
        ///   - ephemeralPublicKey: The ephemeral public key (EC_v1).
        ///   - wrappedKey: The wrapped key (RSA_v1).
        ///   - publicKeyHash: The merchant public key hash.
        ///   - transactionId: The transaction identifier bytes.
        ///   - applicationData: The application data hash, if any.
        public init(ephemeralPublicKey: Data? = nil, wrappedKey: Data? = nil, publicKeyHash: Data, transactionId: Data,
                    applicationData: Data? = nil) {
            self.ephemeralPublicKey = ephemeralPublicKey
            self.wrappedKey = wrappedKey
            self.publicKeyHash = publicKeyHash
            self.transactionId = transactionId
            self.applicationData = applicationData
        }

        /// `publicKeyHash` in Base64, as it appears in the token.
        public var publicKeyHashBase64: String { publicKeyHash.base64EncodedString() }
        /// `transactionId` in lower-case hexadecimal.
        public var transactionIdHex: String { Hex.encode(transactionId) }
    }

    /// The wrapper's `paymentMethod`: what the sheet showed (never the card number).
    public struct PaymentMethod: Sendable, Equatable, Codable {
        /// e.g. "Visa 1234".
        public var displayName: String?
        /// e.g. "Visa".
        public var network: String?
        /// e.g. "debit", "credit".
        public var type: String?

        /// Creates a payment method.
        /// - Parameters:
        ///   - displayName: The name shown on the sheet.
        ///   - network: The card network.
        ///   - type: The card type.
        public init(displayName: String? = nil, network: String? = nil, type: String? = nil) {
            self.displayName = displayName
            self.network = network
            self.type = type
        }
    }

    /// `version`.
    public var version: Version
    /// `data`: the ciphertext followed by the 16-byte GCM tag.
    public var data: Data
    /// `signature`: the detached CMS signature (DER).
    public var signature: Data
    /// `header`.
    public var header: Header
    /// The wrapper's `transactionIdentifier`, when present.
    public var transactionIdentifier: String?
    /// The wrapper's `paymentMethod`, when present.
    public var paymentMethod: PaymentMethod?

    /// Creates a token from its parts.
    /// - Parameters:
    ///   - version: The scheme.
    ///   - data: Ciphertext and tag.
    ///   - signature: The CMS signature.
    ///   - header: The header.
    ///   - transactionIdentifier: The wrapper's transaction identifier.
    ///   - paymentMethod: The wrapper's payment method.
    public init(version: Version, data: Data, signature: Data, header: Header, transactionIdentifier: String? = nil,
                paymentMethod: PaymentMethod? = nil) {
        self.version = version
        self.data = data
        self.signature = signature
        self.header = header
        self.transactionIdentifier = transactionIdentifier
        self.paymentMethod = paymentMethod
    }

    /// The bytes the CMS signature covers: `ephemeralPublicKey` (EC_v1) or `wrappedKey` (RSA_v1), then `data`,
    /// `transactionId` and, when present, `applicationData`.
    public var signedContent: Data {
        var content = Data()
        switch version {
        case .ecV1: content.append(header.ephemeralPublicKey ?? Data())
        case .rsaV1: content.append(header.wrappedKey ?? Data())
        }
        content.append(data)
        content.append(header.transactionId)
        if let applicationData = header.applicationData { content.append(applicationData) }
        return content
    }
}
