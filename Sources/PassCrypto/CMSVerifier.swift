internal import COpenSSL
public import Foundation

/// What a detached CMS signature says about itself once checked.
public struct CMSSignatureInfo: Sendable {
    /// The certificate that signed.
    public var signer: Certificate
    /// Every certificate embedded in the signature.
    public var embeddedCertificates: [Certificate]
    /// The `signingTime` attribute, if present.
    public var signingTime: Date?
    /// The digest algorithm's short name, e.g. "SHA256".
    public var digestAlgorithm: String
    /// Whether the signer's chain was checked against a trusted root.
    public var chainVerified: Bool
    /// The verified chain from the signer to the trusted root (empty when the chain was not checked).
    public var chain: [Certificate]
}

/// Verifies detached CMS (PKCS#7) signatures.
public struct CMSVerifier: Sendable {
    /// Trusted roots; when empty only the signature itself is checked, not the chain.
    public var trustedRoots: [Certificate]
    /// Untrusted intermediates offered for chain building in addition to those embedded.
    public var intermediates: [Certificate]
    /// The moment at which certificates must be valid (`nil`: now).
    public var verificationTime: Date?
    /// Chains that already verified, shared between verifications; `nil` checks every chain in full.
    public var chainCache: VerifiedChainCache?

    /// Creates a verifier.
    /// - Parameters:
    ///   - trustedRoots: Roots to build the chain to; empty to skip chain checks.
    ///   - intermediates: Extra intermediates.
    ///   - verificationTime: The time for certificate validity, or `nil` for now.
    ///   - chainCache: Chains that already verified, or `nil` to check every chain in full.
    public init(
        trustedRoots: [Certificate] = [], intermediates: [Certificate] = [], verificationTime: Date? = nil,
        chainCache: VerifiedChainCache? = nil
    ) {
        self.trustedRoots = trustedRoots
        self.intermediates = intermediates
        self.verificationTime = verificationTime
        self.chainCache = chainCache
    }

    /// Checks `signature` over `content`.
    /// - Parameters:
    ///   - signature: DER (or PEM) CMS `ContentInfo`.
    ///   - content: The detached content.
    /// - Returns: Facts about the signature.
    public func verify(signature: Data, content: Data) throws -> CMSSignatureInfo {
        try withSignature(signature) { cms, untrusted, signerInfo, signer, embedded in
            // The chain first (as CMS_verify orders it), then the signature with the chain check switched off.
            let chain = trustedRoots.isEmpty ? [] : try verifiedChain(of: signer, untrusted: embedded + intermediates)
            let flags = UInt32(CMS_BINARY | CMS_DETACHED | CMS_NO_SIGNER_CERT_VERIFY)
            let verified = try OpenSSL.withReadBIO(content) { bio in
                CMS_verify(cms, untrusted, nil, bio, nil, flags) == 1
            }
            guard verified else {
                let errors = OpenSSL.drainErrors()
                let reason = errors.contains(where: { $0.contains("content verify error") || $0.contains("verification failure") })
                    ? "the signature does not match the signed content" : "the signature does not verify"
                throw CryptoError(.verificationFailed, reason, openSSLErrors: errors)
            }
            return CMSSignatureInfo(
                signer: signer, embeddedCertificates: embedded, signingTime: signingTime(of: signerInfo),
                digestAlgorithm: digestAlgorithm(of: signerInfo), chainVerified: !trustedRoots.isEmpty, chain: chain)
        }
    }

    /// Reads who signed `signature`, when and with which digest, without checking it over any content or chain: what
    /// a report shows of a signature that does not verify (its content changed after signing), so that who signed it
    /// is still known. `chainVerified` is false.
    /// - Parameter signature: DER (or PEM) CMS `ContentInfo`.
    /// - Returns: Facts about the signature, none of them verified.
    /// - Throws: ``CryptoError`` when it is not a detached SignedData with one signer whose certificate it holds.
    public func read(signature: Data) throws -> CMSSignatureInfo {
        try withSignature(signature) { _, _, signerInfo, signer, embedded in
            CMSSignatureInfo(
                signer: signer, embeddedCertificates: embedded, signingTime: signingTime(of: signerInfo),
                digestAlgorithm: digestAlgorithm(of: signerInfo), chainVerified: false, chain: [])
        }
    }

    /// Parses a detached SignedData with one signer and finds the signer's certificate among the embedded and the
    /// offered ones (as CMS_verify would), then runs `body` with the structure, the offered certificates as a stack,
    /// the signer info, the signer and the embedded certificates.
    private func withSignature<T>(
        _ signature: Data,
        _ body: (OpaquePointer, OpaquePointer, OpaquePointer, Certificate, [Certificate]) throws -> T
    ) throws -> T {
        OpenSSL.clearErrors()
        let cms: OpaquePointer? = try OpenSSL.withReadBIO(signature) { bio in
            if let cms = d2i_CMS_bio(bio, nil) { return cms }
            _ = tessera_BIO_reset(bio)
            return tessera_PEM_read_bio_CMS(bio)
        }
        guard let cms else {
            throw CryptoError.openSSL(.invalidSignature, "the signature is not a DER or PEM CMS (PKCS#7) structure")
        }
        defer { CMS_ContentInfo_free(cms) }
        guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed else {
            throw CryptoError(.invalidSignature, "the CMS structure is not SignedData")
        }
        guard CMS_get0_content(cms)?.pointee == nil else {
            throw CryptoError(.invalidSignature, "the signature embeds its content; Wallet needs a detached signature")
        }

        guard let untrusted = tessera_sk_X509_new_null() else { throw CryptoError.openSSL(.internalFailure, "allocation failed") }
        defer { tessera_sk_X509_free(untrusted) }
        for certificate in intermediates { _ = tessera_sk_X509_push(untrusted, certificate.pointer) }

        let signerInfo = try onlySignerInfo(of: cms)
        // Resolves the signer among the embedded and the offered certificates, as CMS_verify would.
        _ = CMS_set1_signers_certs(cms, untrusted, 0)
        OpenSSL.clearErrors()
        var signerPointer: OpaquePointer?
        CMS_SignerInfo_get0_algs(signerInfo, nil, &signerPointer, nil, nil)
        guard let signerPointer, X509_up_ref(signerPointer) == 1 else {
            throw CryptoError(.verificationFailed, "the signer's certificate is not in the signature or the given certificates")
        }
        let signer = Certificate(taking: signerPointer)
        return try body(cms, untrusted, signerInfo, signer, embeddedCertificates(of: cms))
    }

    /// Builds and checks the signer's chain to a trusted root at the verification time, or takes it from the cache.
    /// - Returns: The chain from the signer to the root.
    private func verifiedChain(of signer: Certificate, untrusted offered: [Certificate]) throws -> [Certificate] {
        let time = verificationTime ?? Date()
        let key = chainCache.map { _ in cacheKey(signer: signer, offered: offered) }
        if let chainCache, let key, let chain = chainCache.chain(for: key, at: time) { return chain }

        guard let store = X509_STORE_new() else { throw CryptoError.openSSL(.internalFailure, "allocation failed") }
        defer { X509_STORE_free(store) }
        for root in trustedRoots { X509_STORE_add_cert(store, root.pointer) }
        if let param = X509_STORE_get0_param(store) {
            // Pass Type ID certificates carry clientAuth, not S/MIME: Wallet checks the chain, not the S/MIME purpose.
            X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_ANY)
            X509_VERIFY_PARAM_set_time(param, time_t(time.timeIntervalSince1970))
        }
        guard let untrusted = tessera_sk_X509_new_null(), let context = X509_STORE_CTX_new() else {
            throw CryptoError.openSSL(.internalFailure, "allocation failed")
        }
        defer { tessera_sk_X509_free(untrusted); X509_STORE_CTX_free(context) }
        for certificate in offered { _ = tessera_sk_X509_push(untrusted, certificate.pointer) }
        guard X509_STORE_CTX_init(context, store, signer.pointer, untrusted) == 1 else {
            throw CryptoError.openSSL(.internalFailure, "could not set up certificate chain verification")
        }
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let why = String(cString: X509_verify_cert_error_string(Int(code)))
            // The certificate the check stopped at, named: an expired intermediate is not an expired signer.
            var failing: Certificate?
            if let current = X509_STORE_CTX_get_current_cert(context), X509_up_ref(current) == 1 {
                failing = Certificate(taking: current)
            }
            let name = failing.map { "\"\($0.subject["CN"] ?? $0.subject.oneLine)\"" } ?? "a certificate"
            let day = { (date: Date?) in date.map { String(ISO8601DateFormatter().string(from: $0).prefix(10)) } ?? "?" }
            let message = switch code {
            case X509_V_ERR_CERT_HAS_EXPIRED:
                "the signer's certificate chain has expired: \(name) was valid until \(day(failing?.notAfter)), before \(day(time))"
            case X509_V_ERR_CERT_NOT_YET_VALID:
                "the signer's certificate chain is not valid yet: \(name) is valid from \(day(failing?.notBefore)), after \(day(time))"
            default:
                "the signer's certificate chain does not verify against the given root at \(name) (\(why))"
            }
            let expired = code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID
            throw CryptoError(expired ? .certificateExpired : .verificationFailed, message,
                              openSSLErrors: OpenSSL.drainErrors(), certificate: failing)
        }
        var chain: [Certificate] = []
        if let stack = X509_STORE_CTX_get1_chain(context) {
            for index in 0..<tessera_sk_X509_num(stack) {
                if let certificate = tessera_sk_X509_value(stack, index) { chain.append(Certificate(taking: certificate)) }
            }
            tessera_sk_X509_free(stack)  // the certificates' references now belong to `chain`
        }
        if let chainCache, let key { chainCache.insert(chain, for: key) }
        return chain
    }

    /// The cache key: the exact bytes of the trusted roots, the signer and every certificate offered for the chain.
    private func cacheKey(signer: Certificate, offered: [Certificate]) -> Data {
        var material = Data()
        for certificate in trustedRoots + [signer] + offered {
            let der = certificate.derData
            withUnsafeBytes(of: UInt32(der.count).bigEndian) { material.append(contentsOf: $0) }
            material.append(der)
        }
        return Data(Digest.sha256(material))
    }

    private func onlySignerInfo(of cms: OpaquePointer) throws -> OpaquePointer {
        guard let signers = CMS_get0_SignerInfos(cms), tessera_sk_CMS_SignerInfo_num(signers) == 1,
              let signerInfo = tessera_sk_CMS_SignerInfo_value(signers, 0)
        else {
            throw CryptoError(.invalidSignature, "the signature must have exactly one signer")
        }
        return signerInfo
    }

    private func embeddedCertificates(of cms: OpaquePointer) -> [Certificate] {
        var embedded: [Certificate] = []
        if let certs = CMS_get1_certs(cms) {
            for index in 0..<tessera_sk_X509_num(certs) {
                if let x509 = tessera_sk_X509_value(certs, index), X509_up_ref(x509) == 1 {
                    embedded.append(Certificate(taking: x509))
                }
            }
            tessera_sk_X509_pop_free(certs)
        }
        return embedded
    }

    private func digestAlgorithm(of signerInfo: OpaquePointer) -> String {
        var digestAlgorithm: UnsafeMutablePointer<X509_ALGOR>?
        CMS_SignerInfo_get0_algs(signerInfo, nil, nil, &digestAlgorithm, nil)
        guard let digestAlgorithm else { return "unknown" }
        var object: OpaquePointer?
        X509_ALGOR_get0(&object, nil, nil, digestAlgorithm)
        let nid = OBJ_obj2nid(object)
        return nid == NID_undef ? "unknown" : String(cString: OBJ_nid2sn(nid))
    }

    private func signingTime(of signerInfo: OpaquePointer) -> Date? {
        let index = CMS_signed_get_attr_by_NID(signerInfo, NID_pkcs9_signingTime, -1)
        guard index >= 0, let attribute = CMS_signed_get_attr(signerInfo, index),
              let type = X509_ATTRIBUTE_get0_type(attribute, 0)
        else { return nil }
        let kind = ASN1_TYPE_get(type)
        guard kind == V_ASN1_UTCTIME || kind == V_ASN1_GENERALIZEDTIME else { return nil }
        return OpenSSL.date(from: UnsafePointer(type.pointee.value.utctime))
    }
}
