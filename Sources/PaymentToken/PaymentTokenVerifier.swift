public import Foundation
public import PassCrypto

/// What a verified token signature says: when Apple signed it and with which certificates.
public struct PaymentTokenSignature: Sendable {
    /// The CMS `signingTime`.
    public var signingTime: Date
    /// The leaf certificate that signed (carries OID 1.2.840.113635.100.6.29).
    public var leaf: Certificate
    /// The intermediate that issued the leaf (carries OID 1.2.840.113635.100.6.2.14).
    public var intermediate: Certificate
}

/// Verifies the signature of Apple Pay payment tokens as Apple's "Payment token format reference" requires:
/// the leaf and intermediate carry Apple's OIDs, the chain leads to Apple Root CA - G3 and is valid at the
/// verification time, the detached CMS signature covers the token fields, and the signing time is recent.
public struct PaymentTokenVerifier: Sendable {
    /// OID the leaf (payment-processing signing) certificate must carry.
    public static let leafOID = "1.2.840.113635.100.6.29"
    /// OID the intermediate (Apple Application Integration CA - G3) must carry.
    public static let intermediateOID = "1.2.840.113635.100.6.2.14"

    /// What the verifier trusts and how much clock difference it accepts.
    public struct Configuration: Sendable {
        /// The trusted roots: Apple Root CA - G3, supplied by the deployment (never bundled); a test root in tests.
        public var appleRootCertificates: [Certificate]
        /// How far the CMS signing time may be from the verification time, in seconds (Apple suggests minutes).
        public var signingTimeTolerance: TimeInterval

        /// Creates a configuration.
        /// - Parameters:
        ///   - appleRootCertificates: The trusted roots.
        ///   - signingTimeTolerance: The accepted distance between signing time and now (default 5 minutes).
        public init(appleRootCertificates: [Certificate], signingTimeTolerance: TimeInterval = 300) {
            self.appleRootCertificates = appleRootCertificates
            self.signingTimeTolerance = signingTimeTolerance
        }
    }

    /// The configuration.
    public var configuration: Configuration
    /// Chains (leaf, intermediate, root) already verified: Apple signs every token of a period with one leaf, and
    /// checking the intermediate's P-384 signature from Apple Root CA - G3 is the costliest step of a token.
    private let chainCache = VerifiedChainCache()

    /// Creates a verifier.
    /// - Parameter configuration: The trusted roots and tolerance.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Verifies `token`'s signature as of `now`.
    /// - Parameters:
    ///   - token: The token.
    ///   - now: The verification time: certificates must be valid then and the signing time close to it.
    /// - Returns: The signing time and certificates.
    /// - Throws: ``PaymentTokenError`` with ``PaymentTokenError/Code/signatureInvalid``,
    ///   ``PaymentTokenError/Code/certificateChainInvalid``, ``PaymentTokenError/Code/missingAppleOID`` or
    ///   ``PaymentTokenError/Code/signingTimeOutOfRange``.
    public func verify(_ token: ApplePayPaymentToken, now: Date = Date()) throws -> PaymentTokenSignature {
        guard !configuration.appleRootCertificates.isEmpty else {
            throw PaymentTokenError(.invalidConfiguration, "no Apple root certificate is configured")
        }
        switch token.version {
        case .ecV1 where token.header.ephemeralPublicKey == nil:
            throw PaymentTokenError.malformedToken(field: "header.ephemeralPublicKey", "is missing")
        case .rsaV1 where token.header.wrappedKey == nil:
            throw PaymentTokenError.malformedToken(field: "header.wrappedKey", "is missing")
        default: break
        }
        let info: CMSSignatureInfo
        do {
            info = try CMSVerifier(
                trustedRoots: configuration.appleRootCertificates, verificationTime: now, chainCache: chainCache
            ).verify(signature: token.signature, content: token.signedContent)
        } catch let error as CryptoError {
            throw Self.mapped(error, now: now)
        }
        let leaf = info.signer
        guard leaf.extensionValue(oid: Self.leafOID) != nil else {
            throw PaymentTokenError(.missingAppleOID, "signature: the leaf certificate (\(leaf.subject.oneLine)) lacks "
                                        + "Apple's payment signing OID \(Self.leafOID)", field: "signature")
        }
        // The chain OpenSSL verified runs leaf → intermediate → root; Apple's has exactly one intermediate.
        guard info.chain.count == 3 else {
            throw PaymentTokenError(.certificateChainInvalid, "signature: the leaf certificate must be issued by an "
                                        + "intermediate that the configured Apple root issued directly (the verified "
                                        + "chain has \(info.chain.count) certificates, Apple's has 3)", field: "signature")
        }
        let intermediate = info.chain[1]
        guard intermediate.extensionValue(oid: Self.intermediateOID) != nil else {
            throw PaymentTokenError(.missingAppleOID, "signature: the intermediate certificate (\(intermediate.subject.oneLine)) "
                                        + "lacks Apple's OID \(Self.intermediateOID)", field: "signature")
        }
        guard let signingTime = info.signingTime else {
            throw PaymentTokenError(.signingTimeOutOfRange, "signature: the CMS signature has no signing time",
                                    field: "signature", now: now)
        }
        guard abs(now.timeIntervalSince(signingTime)) <= configuration.signingTimeTolerance else {
            throw PaymentTokenError.signingTimeOutOfRange(signingTime: signingTime, now: now,
                                                          tolerance: configuration.signingTimeTolerance)
        }
        return PaymentTokenSignature(signingTime: signingTime, leaf: leaf, intermediate: intermediate)
    }

    /// Translates PassCrypto's CMS errors into token errors.
    private static func mapped(_ error: CryptoError, now: Date) -> PaymentTokenError {
        let detail = error.openSSLErrors.isEmpty ? "" : " (OpenSSL: \(error.openSSLErrors.joined(separator: "; ")))"
        if error.code == .certificateExpired {
            let time = ISO8601DateFormatter().string(from: now)
            return PaymentTokenError(.certificateChainInvalid, "signature: a signing certificate is not valid at the "
                                        + "verification time \(time)\(detail)", field: "signature", now: now)
        }
        if error.code == .verificationFailed && error.reason.contains("chain") {
            return PaymentTokenError(.certificateChainInvalid, "signature: \(error.reason)\(detail)", field: "signature")
        }
        if error.code == .invalidSignature {
            return PaymentTokenError(.signatureInvalid, "signature: \(error.reason)", field: "signature")
        }
        return PaymentTokenError(.signatureInvalid, "signature: \(error.reason) (the signed token fields were altered, "
                                    + "or the token was not signed by Apple)\(detail)", field: "signature")
    }
}
