internal import COpenSSL

/// An error from certificate, key or signature handling, with a human reason and, when OpenSSL
/// failed, OpenSSL's own error strings.
public struct CryptoError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is, for callers that branch on it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidCertificate, invalidKey, wrongPassword, passwordRequired, keyMismatch
            case invalidPKCS12, signingFailed, invalidSignature, verificationFailed, certificateExpired
            case internalFailure
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The certificate could not be read.
        public static let invalidCertificate = Code(.invalidCertificate)
        /// The private key could not be read.
        public static let invalidKey = Code(.invalidKey)
        /// A password was given but does not decrypt the key or PKCS#12 file.
        public static let wrongPassword = Code(.wrongPassword)
        /// The key or PKCS#12 file is encrypted and no password was given.
        public static let passwordRequired = Code(.passwordRequired)
        /// The private key does not belong to the certificate.
        public static let keyMismatch = Code(.keyMismatch)
        /// The PKCS#12 file could not be read.
        public static let invalidPKCS12 = Code(.invalidPKCS12)
        /// Creating a signature failed.
        public static let signingFailed = Code(.signingFailed)
        /// The signature could not be parsed.
        public static let invalidSignature = Code(.invalidSignature)
        /// The signature does not verify.
        public static let verificationFailed = Code(.verificationFailed)
        /// A certificate is outside its validity period.
        public static let certificateExpired = Code(.certificateExpired)
        /// OpenSSL failed where it should not.
        public static let internalFailure = Code(.internalFailure)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// A plain explanation naming the file or item at fault.
    public let reason: String
    /// OpenSSL's error queue at the time of failure, most recent last (empty when OpenSSL was not involved).
    public let openSSLErrors: [String]
    /// The certificate the failure is about, when it is one certificate: the one a chain's check stopped at.
    public let certificate: Certificate?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - reason: A plain explanation.
    ///   - openSSLErrors: OpenSSL's error strings, if any.
    ///   - certificate: The certificate at fault, if the failure is about one.
    public init(_ code: Code, _ reason: String, openSSLErrors: [String] = [], certificate: Certificate? = nil) {
        self.code = code
        self.reason = reason
        self.openSSLErrors = openSSLErrors
        self.certificate = certificate
    }

    /// The reason, followed by OpenSSL's errors in parentheses (each once) when there are any. A wrong or missing
    /// password is said plainly: OpenSSL's decryption errors add nothing to it.
    public var description: String {
        var seen: Set<String> = []
        let details = openSSLErrors.filter { seen.insert($0).inserted }
        if details.isEmpty || code == .wrongPassword || code == .passwordRequired { return reason }
        return "\(reason) (OpenSSL: \(details.joined(separator: "; ")))"
    }

    /// Builds an error from OpenSSL's error queue, which it empties.
    static func openSSL(_ code: Code, _ reason: String) -> CryptoError {
        CryptoError(code, reason, openSSLErrors: OpenSSL.drainErrors())
    }
}
