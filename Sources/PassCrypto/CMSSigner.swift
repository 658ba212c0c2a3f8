internal import COpenSSL
public import Foundation

/// Creates detached CMS (PKCS#7) signatures, as Wallet expects for `manifest.json`:
/// binary mode, SHA-256, a `signingTime` attribute, and the intermediate certificates included.
public struct CMSSigner: Sendable {
    /// The signing certificate.
    public let certificate: Certificate
    /// Its private key.
    public let privateKey: PrivateKey
    /// Certificates to include besides the signer's (the WWDR intermediate).
    public let chain: [Certificate]

    /// Creates a signer, checking that the key belongs to the certificate.
    /// - Parameters:
    ///   - certificate: The signing certificate.
    ///   - privateKey: Its private key.
    ///   - chain: Intermediate certificates to include in each signature.
    public init(certificate: Certificate, privateKey: PrivateKey, chain: [Certificate]) throws {
        guard certificate.matches(privateKey) else {
            throw CryptoError(.keyMismatch,
                              "the private key does not belong to the certificate \(certificate.subject["CN"] ?? certificate.subject.oneLine)")
        }
        // Certificates read from DER keep their encoding, which OpenSSL copies into every signature; ones built in
        // this process (DevelopmentChain) would be encoded field by field for each signature instead.
        let certificate = try Certificate(data: certificate.derData)
        let chain = try chain.map { try Certificate(data: $0.derData) }
        self.certificate = certificate
        self.privateKey = privateKey
        self.chain = chain
        // One signature now, whatever the key: a key that cannot make the signature Wallet needs (a key object in a
        // hardware module without the sign permission, a token pulled out, a key type CMS cannot use with SHA-256)
        // is refused where it is loaded, and an identities reload keeps the identity in force, instead of every pass
        // it was to sign failing.
        let content = Data("Tessera CMS template".utf8)
        let seconds = time(nil)
        let reference: Data
        do {
            reference = try Self.signWithOpenSSL(content, signingTime: Date(timeIntervalSince1970: TimeInterval(seconds)),
                                                 certificate: certificate, privateKey: privateKey, chain: chain)
        } catch {
            throw CryptoError(.signingFailed, "the private key of \(certificate.subject["CN"] ?? certificate.subject.oneLine) "
                + "cannot sign: \(error)")
        }
        self.template = Self.prepareTemplate(reference: reference, content: content, signingTime: seconds, privateKey: privateKey)
    }

    /// This signer's signature made once by OpenSSL, for signing by filling in the values that change (RSA keys).
    private let template: CMSSignatureTemplate?

    /// Whether signatures are made through the template (an RSA key whose signature had the expected layout).
    var usesTemplate: Bool { template != nil }

    /// Signs `content` and returns the DER-encoded detached signature.
    /// - Parameter content: The exact bytes to sign.
    /// - Returns: A DER `ContentInfo` holding `SignedData` without the content.
    public func signDetached(_ content: Data) throws -> Data {
        try signDetached(content, signingTime: nil)
    }

    /// Signs `content` with the given `signingTime` attribute (`nil`: the current time).
    func signDetached(_ content: Data, signingTime: Date?) throws -> Data {
        if let template {
            let seconds = signingTime.map { time_t($0.timeIntervalSince1970.rounded(.down)) } ?? time(nil)
            if let signed = try template.sign(content, at: seconds) { return signed }
        }
        return try Self.signWithOpenSSL(content, signingTime: signingTime ?? Date(), certificate: certificate,
                                        privateKey: privateKey, chain: chain)
    }

    /// Signs `content` with OpenSSL building the whole CMS structure, never through the template.
    func signWithOpenSSL(_ content: Data, signingTime: Date) throws -> Data {
        try Self.signWithOpenSSL(content, signingTime: signingTime, certificate: certificate, privateKey: privateKey, chain: chain)
    }

    /// A template proved against `reference`, a signature OpenSSL made of `content` at `signingTime`, or `nil` (EC
    /// keys, any unexpected layout).
    private static func prepareTemplate(reference: Data, content: Data, signingTime: time_t, privateKey: PrivateKey)
        -> CMSSignatureTemplate?
    {
        guard EVP_PKEY_get_base_id(privateKey.pointer) == EVP_PKEY_RSA else { return nil }
        return CMSSignatureTemplate.prepare(reference: reference, content: content, signingTime: signingTime, key: privateKey.pointer)
    }

    private static func signWithOpenSSL(_ content: Data, signingTime: Date, certificate: Certificate, privateKey: PrivateKey,
                                        chain: [Certificate]) throws -> Data {
        guard let stack = tessera_sk_X509_new_null() else {
            throw CryptoError.openSSL(.internalFailure, "allocation failed")
        }
        defer { tessera_sk_X509_free(stack) }
        for intermediate in chain { _ = tessera_sk_X509_push(stack, intermediate.pointer) }

        // CMS_sign in two steps (PARTIAL, add the signer with a SHA-256 fetched once, then final) is the same
        // signature as CMS_sign(cert, key, ...) without a digest lookup per call.
        let flags = UInt32(CMS_DETACHED | CMS_BINARY | CMS_NOSMIMECAP | CMS_PARTIAL)
        guard let cms = CMS_sign(nil, nil, stack, nil, flags) else {
            throw CryptoError.openSSL(.signingFailed, "could not start the signature")
        }
        defer { CMS_ContentInfo_free(cms) }
        guard let signerInfo = CMS_add1_signer(cms, certificate.pointer, privateKey.pointer, FetchedDigest.sha256.pointer, flags) else {
            throw CryptoError.openSSL(.signingFailed, "could not add the signer")
        }
        try add(signingTime: signingTime, to: signerInfo)
        let finished = try OpenSSL.withReadBIO(content) { bio in CMS_final(cms, bio, nil, flags) == 1 }
        guard finished else {
            throw CryptoError.openSSL(.signingFailed, "could not sign the manifest")
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_CMS_ContentInfo(cms, &buffer)
        guard length > 0, let buffer else {
            throw CryptoError.openSSL(.signingFailed, "could not encode the signature")
        }
        defer { tessera_OPENSSL_free(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }
}

/// An `EVP_MD` fetched once and kept for the life of the process.
final class FetchedDigest: @unchecked Sendable {
    /// SHA-256 from the default provider.
    static let sha256 = FetchedDigest(name: "SHA256")

    let pointer: OpaquePointer?

    init(name: String) {
        pointer = EVP_MD_fetch(nil, name, nil)
    }

    deinit {
        EVP_MD_free(pointer)
    }
}
