internal import COpenSSL
public import Foundation

/// Issues X.509 v3 certificates; used for development chains and test fixtures, never for production trust.
public struct CertificateBuilder: Sendable {
    /// The subject name, in order.
    public var subject: DistinguishedName
    /// Start of validity.
    public var notBefore: Date
    /// End of validity.
    public var notAfter: Date
    /// Extensions as OpenSSL configuration pairs, e.g. `("basicConstraints", "critical,CA:TRUE")` or
    /// `("1.2.840.113635.100.6.1.16", "ASN1:UTF8String:pass.com.example")`.
    public var extensions: [(name: String, value: String)]

    /// Creates a builder.
    /// - Parameters:
    ///   - subject: The subject name.
    ///   - notBefore: Start of validity.
    ///   - notAfter: End of validity.
    ///   - extensions: Extensions in OpenSSL configuration syntax.
    public init(subject: DistinguishedName, notBefore: Date, notAfter: Date, extensions: [(name: String, value: String)]) {
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.extensions = extensions
    }

    /// Issues the certificate for `publicKeyOf`, signed by `issuerKey` (self-signed when `issuer` is `nil`).
    /// - Parameters:
    ///   - publicKeyOf: The subject's key pair (its public half goes in the certificate).
    ///   - issuer: The issuing certificate, or `nil` for a self-signed root.
    ///   - issuerKey: The issuer's private key.
    /// - Returns: The signed certificate.
    public func issue(publicKeyOf subjectKey: PrivateKey, issuer: Certificate?, issuerKey: PrivateKey) throws -> Certificate {
        OpenSSL.clearErrors()
        guard let x509 = X509_new() else { throw CryptoError.openSSL(.internalFailure, "allocation failed") }
        let certificate = Certificate(taking: x509)
        X509_set_version(x509, 2)

        var serial = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&serial, Int32(serial.count)) == 1 else { throw CryptoError.openSSL(.internalFailure, "no randomness") }
        serial[0] &= 0x7F
        if let bn = BN_bin2bn(serial, Int32(serial.count), nil) {
            BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x509))
            BN_free(bn)
        }

        guard let name = X509_NAME_new() else { throw CryptoError.openSSL(.internalFailure, "allocation failed") }
        defer { X509_NAME_free(name) }
        for attribute in subject.attributes {
            let ok = X509_NAME_add_entry_by_txt(name, attribute.name, MBSTRING_UTF8, attribute.value, -1, -1, 0)
            guard ok == 1 else { throw CryptoError.openSSL(.invalidCertificate, "bad subject attribute \(attribute.name)") }
        }
        X509_set_subject_name(x509, name)
        X509_set_issuer_name(x509, issuer.map { X509_get_subject_name($0.pointer) } ?? name)

        X509_time_adj_ex(X509_getm_notBefore(x509), 0, Int(notBefore.timeIntervalSince1970) - Int(Date().timeIntervalSince1970), nil)
        X509_time_adj_ex(X509_getm_notAfter(x509), 0, Int(notAfter.timeIntervalSince1970) - Int(Date().timeIntervalSince1970), nil)
        X509_set_pubkey(x509, subjectKey.pointer)

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.pointer ?? x509, x509, nil, nil, 0)
        for (extensionName, value) in extensions {
            guard let ext = X509V3_EXT_nconf(nil, &context, extensionName, value) else {
                throw CryptoError.openSSL(.invalidCertificate, "bad extension \(extensionName)=\(value)")
            }
            X509_add_ext(x509, ext, -1)
            X509_EXTENSION_free(ext)
        }
        guard X509_sign(x509, issuerKey.pointer, EVP_sha256()) > 0 else {
            throw CryptoError.openSSL(.signingFailed, "could not sign the certificate")
        }
        return certificate
    }
}
