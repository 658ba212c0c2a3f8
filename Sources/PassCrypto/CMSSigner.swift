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
        self.certificate = try Certificate(data: certificate.derData)
        self.privateKey = privateKey
        self.chain = try chain.map { try Certificate(data: $0.derData) }
    }

    /// SHA-256, fetched from the default provider once per process.
    private static let sha256 = FetchedDigest(name: "SHA256")

    /// Signs `content` and returns the DER-encoded detached signature.
    /// - Parameter content: The exact bytes to sign.
    /// - Returns: A DER `ContentInfo` holding `SignedData` without the content.
    public func signDetached(_ content: Data) throws -> Data {
        try signDetached(content, signingTime: nil)
    }

    /// Signs `content` with the given `signingTime` attribute (`nil`: the current time).
    func signDetached(_ content: Data, signingTime: Date?) throws -> Data {
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
        guard let signerInfo = CMS_add1_signer(cms, certificate.pointer, privateKey.pointer, Self.sha256.pointer, flags) else {
            throw CryptoError.openSSL(.signingFailed, "could not add the signer")
        }
        if let signingTime { try Self.add(signingTime: signingTime, to: signerInfo) }
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
    let pointer: OpaquePointer?

    init(name: String) {
        pointer = EVP_MD_fetch(nil, name, nil)
    }

    deinit {
        EVP_MD_free(pointer)
    }
}
