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
        self.certificate = certificate
        self.privateKey = privateKey
        self.chain = chain
    }

    /// Signs `content` and returns the DER-encoded detached signature.
    /// - Parameter content: The exact bytes to sign.
    /// - Returns: A DER `ContentInfo` holding `SignedData` without the content.
    public func signDetached(_ content: Data) throws -> Data {
        guard let stack = tessera_sk_X509_new_null() else {
            throw CryptoError.openSSL(.internalFailure, "allocation failed")
        }
        defer { tessera_sk_X509_free(stack) }
        for intermediate in chain { _ = tessera_sk_X509_push(stack, intermediate.pointer) }

        let flags = UInt32(CMS_DETACHED | CMS_BINARY | CMS_NOSMIMECAP)
        let cms: OpaquePointer? = try OpenSSL.withReadBIO(content) { bio in
            CMS_sign(certificate.pointer, privateKey.pointer, stack, bio, flags)
        }
        guard let cms else {
            throw CryptoError.openSSL(.signingFailed, "could not sign the manifest")
        }
        defer { CMS_ContentInfo_free(cms) }
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_CMS_ContentInfo(cms, &buffer)
        guard length > 0, let buffer else {
            throw CryptoError.openSSL(.signingFailed, "could not encode the signature")
        }
        defer { tessera_OPENSSL_free(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }
}
