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
}

/// Verifies detached CMS (PKCS#7) signatures.
public struct CMSVerifier: Sendable {
    /// Trusted roots; when empty only the signature itself is checked, not the chain.
    public var trustedRoots: [Certificate]
    /// Untrusted intermediates offered for chain building in addition to those embedded.
    public var intermediates: [Certificate]
    /// The moment at which certificates must be valid (`nil`: now).
    public var verificationTime: Date?

    /// Creates a verifier.
    /// - Parameters:
    ///   - trustedRoots: Roots to build the chain to; empty to skip chain checks.
    ///   - intermediates: Extra intermediates.
    ///   - verificationTime: The time for certificate validity, or `nil` for now.
    public init(trustedRoots: [Certificate] = [], intermediates: [Certificate] = [], verificationTime: Date? = nil) {
        self.trustedRoots = trustedRoots
        self.intermediates = intermediates
        self.verificationTime = verificationTime
    }

    /// Checks `signature` over `content`.
    /// - Parameters:
    ///   - signature: DER (or PEM) CMS `ContentInfo`.
    ///   - content: The detached content.
    /// - Returns: Facts about the signature.
    public func verify(signature: Data, content: Data) throws -> CMSSignatureInfo {
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

        guard let store = X509_STORE_new() else { throw CryptoError.openSSL(.internalFailure, "allocation failed") }
        defer { X509_STORE_free(store) }
        for root in trustedRoots { X509_STORE_add_cert(store, root.pointer) }
        if let param = X509_STORE_get0_param(store) {
            // Pass Type ID certificates carry clientAuth, not S/MIME: Wallet checks the chain, not the S/MIME purpose.
            X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_ANY)
            if let verificationTime { X509_VERIFY_PARAM_set_time(param, time_t(verificationTime.timeIntervalSince1970)) }
        }
        guard let untrusted = tessera_sk_X509_new_null() else { throw CryptoError.openSSL(.internalFailure, "allocation failed") }
        defer { tessera_sk_X509_free(untrusted) }
        for certificate in intermediates { _ = tessera_sk_X509_push(untrusted, certificate.pointer) }

        var flags = UInt32(CMS_BINARY | CMS_DETACHED)
        if trustedRoots.isEmpty { flags |= UInt32(CMS_NO_SIGNER_CERT_VERIFY) }
        let verified = try OpenSSL.withReadBIO(content) { bio in
            CMS_verify(cms, untrusted, store, bio, nil, flags) == 1
        }
        guard verified else {
            let errors = OpenSSL.drainErrors()
            let expired = errors.contains { $0.contains("expired") || $0.contains("not yet valid") }
            let reason: String
            if errors.contains(where: { $0.contains("content verify error") || $0.contains("verification failure") && !$0.contains("certificate") }) {
                reason = "the signature does not match the signed content"
            } else if let detail = errors.first(where: { $0.contains("certificate verify error") }) {
                let why = detail.components(separatedBy: "Verify error:").dropFirst().first.map { " (\($0.trimmingCharacters(in: .whitespaces)))" } ?? ""
                reason = "the signer's certificate chain does not verify against the given root\(why)"
            } else {
                reason = "the signature does not verify"
            }
            throw CryptoError(expired ? .certificateExpired : .verificationFailed, reason, openSSLErrors: errors)
        }
        return try info(of: cms, chainVerified: !trustedRoots.isEmpty)
    }

    private func info(of cms: OpaquePointer, chainVerified: Bool) throws -> CMSSignatureInfo {
        guard let signers = CMS_get0_SignerInfos(cms), tessera_sk_CMS_SignerInfo_num(signers) == 1,
              let signerInfo = tessera_sk_CMS_SignerInfo_value(signers, 0)
        else {
            throw CryptoError(.invalidSignature, "the signature must have exactly one signer")
        }
        var signerCert: OpaquePointer?
        var digestAlgorithm: UnsafeMutablePointer<X509_ALGOR>?
        CMS_SignerInfo_get0_algs(signerInfo, nil, &signerCert, &digestAlgorithm, nil)
        guard let signerCert, X509_up_ref(signerCert) == 1 else {
            throw CryptoError(.invalidSignature, "the signer's certificate is not in the signature or the given certificates")
        }
        var digestName = "unknown"
        if let digestAlgorithm {
            var object: OpaquePointer?
            X509_ALGOR_get0(&object, nil, nil, digestAlgorithm)
            let nid = OBJ_obj2nid(object)
            if nid != NID_undef { digestName = String(cString: OBJ_nid2sn(nid)) }
        }
        var embedded: [Certificate] = []
        if let certs = CMS_get1_certs(cms) {
            for index in 0..<tessera_sk_X509_num(certs) {
                if let x509 = tessera_sk_X509_value(certs, index), X509_up_ref(x509) == 1 {
                    embedded.append(Certificate(taking: x509))
                }
            }
            tessera_sk_X509_pop_free(certs)
        }
        var signingTime: Date?
        let index = CMS_signed_get_attr_by_NID(signerInfo, NID_pkcs9_signingTime, -1)
        if index >= 0, let attribute = CMS_signed_get_attr(signerInfo, index),
           let type = X509_ATTRIBUTE_get0_type(attribute, 0) {
            let kind = ASN1_TYPE_get(type)
            if kind == V_ASN1_UTCTIME || kind == V_ASN1_GENERALIZEDTIME {
                signingTime = OpenSSL.date(from: UnsafePointer(type.pointee.value.utctime))
            }
        }
        return CMSSignatureInfo(signer: Certificate(taking: signerCert), embeddedCertificates: embedded,
                                signingTime: signingTime, digestAlgorithm: digestName, chainVerified: chainVerified)
    }
}
