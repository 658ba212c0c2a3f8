public import Foundation

/// Why an Apple Pay payment token was rejected: it could not be read, its signature or certificates do not
/// check out, or it could not be decrypted. The reason names the token field at fault and never contains
/// card data.
public struct PaymentTokenError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is, for callers that branch on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case malformedToken, unsupportedVersion, signatureInvalid, certificateChainInvalid, missingAppleOID
            case signingTimeOutOfRange, noMatchingKey, decryptionFailed, malformedPaymentData
            case applicationDataMismatch, invalidMerchantKey, invalidMerchantIdentifier, invalidConfiguration
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The JSON is not an Apple Pay token, or a field is missing or badly encoded (see ``PaymentTokenError/field``).
        public static let malformedToken = Code(.malformedToken)
        /// `version` is neither `EC_v1` nor `RSA_v1`.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// The CMS signature cannot be read or does not match the signed token fields.
        public static let signatureInvalid = Code(.signatureInvalid)
        /// The signing certificates do not chain to the Apple root, or are not valid at the verification time.
        public static let certificateChainInvalid = Code(.certificateChainInvalid)
        /// The leaf or intermediate certificate lacks the Apple Pay extension OID it must carry.
        public static let missingAppleOID = Code(.missingAppleOID)
        /// The CMS `signingTime` is missing or too far from the verification time (a possible replay).
        public static let signingTimeOutOfRange = Code(.signingTimeOutOfRange)
        /// No merchant key has the token's `publicKeyHash`.
        public static let noMatchingKey = Code(.noMatchingKey)
        /// Key agreement, key unwrapping or AES-GCM failed (wrong merchant identifier or key, or altered data).
        public static let decryptionFailed = Code(.decryptionFailed)
        /// The decrypted payment data is not the JSON object Apple defines.
        public static let malformedPaymentData = Code(.malformedPaymentData)
        /// `header.applicationData` does not match the expected application data.
        public static let applicationDataMismatch = Code(.applicationDataMismatch)
        /// A merchant payment-processing key could not be read or is not P-256 EC or RSA.
        public static let invalidMerchantKey = Code(.invalidMerchantKey)
        /// The merchant identifier (or the merchant certificate carrying it) is unusable.
        public static let invalidMerchantIdentifier = Code(.invalidMerchantIdentifier)
        /// The verifier's configuration (such as the Apple root certificate) is unusable.
        public static let invalidConfiguration = Code(.invalidConfiguration)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// A plain explanation naming the field or file at fault.
    public let reason: String
    /// The token field at fault, as a JSON path such as `header.transactionId`, when one is.
    public let field: String?
    /// The CMS signing time, for ``Code/signingTimeOutOfRange``.
    public let signingTime: Date?
    /// The verification time, for ``Code/signingTimeOutOfRange``.
    public let now: Date?
    /// The token's `publicKeyHash` (Base64), for ``Code/noMatchingKey``.
    public let publicKeyHash: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - reason: A plain explanation.
    ///   - field: The token field at fault.
    ///   - signingTime: The CMS signing time involved.
    ///   - now: The verification time involved.
    ///   - publicKeyHash: The token's `publicKeyHash` involved.
    public init(_ code: Code, _ reason: String, field: String? = nil, signingTime: Date? = nil, now: Date? = nil,
                publicKeyHash: String? = nil) {
        self.code = code
        self.reason = reason
        self.field = field
        self.signingTime = signingTime
        self.now = now
        self.publicKeyHash = publicKeyHash
    }

    /// The reason.
    public var description: String { reason }

    /// A token field that is missing or cannot be decoded.
    static func malformedToken(field: String, _ problem: String) -> PaymentTokenError {
        PaymentTokenError(.malformedToken, "\(field): \(problem)", field: field)
    }

    /// The signing time is further than the tolerance from `now`.
    static func signingTimeOutOfRange(signingTime: Date, now: Date, tolerance: TimeInterval) -> PaymentTokenError {
        let format = ISO8601DateFormatter()
        let reason = "signature: the CMS signing time \(format.string(from: signingTime)) is more than "
            + "\(Int(tolerance)) seconds from the verification time \(format.string(from: now)) (possible replay)"
        return PaymentTokenError(.signingTimeOutOfRange, reason, field: "signature", signingTime: signingTime, now: now)
    }

    /// No merchant key matches `header.publicKeyHash`.
    static func noMatchingKey(publicKeyHash: String, available: [String]) -> PaymentTokenError {
        let known = available.isEmpty ? "no merchant keys were given" : "the merchant keys have \(available.joined(separator: ", "))"
        return PaymentTokenError(.noMatchingKey, "header.publicKeyHash: no merchant key has the hash \(publicKeyHash); \(known)",
                                 field: "header.publicKeyHash", publicKeyHash: publicKeyHash)
    }
}
