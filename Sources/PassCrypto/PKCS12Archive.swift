internal import COpenSSL
public import Foundation
internal import Validation

/// The contents of a PKCS#12 (`.p12`) file: a private key, its certificate and any extra certificates.
public struct PKCS12Archive: Sendable {
    /// The private key.
    public var privateKey: PrivateKey
    /// The certificate matching the key.
    public var certificate: Certificate
    /// Other certificates in the file (often the WWDR intermediate).
    public var additionalCertificates: [Certificate]

    /// Creates an archive from its parts.
    /// - Parameters:
    ///   - privateKey: The key.
    ///   - certificate: Its certificate.
    ///   - additionalCertificates: Extra certificates to include.
    public init(privateKey: PrivateKey, certificate: Certificate, additionalCertificates: [Certificate] = []) {
        self.privateKey = privateKey
        self.certificate = certificate
        self.additionalCertificates = additionalCertificates
    }

    /// Reads a PKCS#12 file, including the legacy RC2-40 / 3DES encryption that macOS Keychain exports.
    /// - Parameters:
    ///   - data: The `.p12` bytes.
    ///   - password: Its password (`""` for none).
    ///   - source: A name for error messages, such as the file path.
    public init(data: Data, password: String, source: String = "PKCS#12 file") throws {
        _ = OpenSSL.legacyProvidersLoaded
        OpenSSL.clearErrors()
        let p12: OpaquePointer? = try OpenSSL.withReadBIO(data) { d2i_PKCS12_bio($0, nil) }
        guard let p12 else {
            throw CryptoError.openSSL(.invalidPKCS12, "\(source): not a PKCS#12 (.p12) file")
        }
        defer { PKCS12_free(p12) }
        if PKCS12_verify_mac(p12, password, Int32(password.utf8.count)) != 1 {
            let emptyOK = password.isEmpty && PKCS12_verify_mac(p12, nil, 0) == 1
            if !emptyOK {
                throw CryptoError.openSSL(
                    password.isEmpty ? .passwordRequired : .wrongPassword,
                    password.isEmpty
                        ? "\(source): the file is password-protected and no password was given"
                        : "\(source): wrong password")
            }
        }
        var key: OpaquePointer?
        var cert: OpaquePointer?
        var extra: OpaquePointer?
        guard PKCS12_parse(p12, password, &key, &cert, &extra) == 1 else {
            throw CryptoError.openSSL(.invalidPKCS12, "\(source): could not decrypt the contents (unsupported encryption?)")
        }
        var others: [Certificate] = []
        if let extra {
            for index in 0..<tessera_sk_X509_num(extra) {
                if let x509 = tessera_sk_X509_value(extra, index), X509_up_ref(x509) == 1 {
                    others.append(Certificate(taking: x509))
                }
            }
            tessera_sk_X509_pop_free(extra)
        }
        guard let key else {
            if let cert { X509_free(cert) }
            throw CryptoError(.invalidPKCS12, "\(source): the file holds no private key")
        }
        guard let cert else {
            EVP_PKEY_free(key)
            throw CryptoError(.invalidPKCS12, "\(source): the file holds no certificate matching its private key")
        }
        self.init(privateKey: PrivateKey(taking: key), certificate: Certificate(taking: cert), additionalCertificates: others)
    }

    /// Reads a `.p12` file.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - password: Its password.
    public init(contentsOf path: String, password: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CryptoError(.invalidPKCS12, "\(path): \(FileReading.problem(at: path))")
        }
        try self.init(data: data, password: password, source: path)
    }

    /// Encodes the archive as a `.p12` with OpenSSL 3's default (AES-256-CBC, SHA-256 MAC) encryption.
    /// - Parameters:
    ///   - password: The password to protect it with.
    ///   - friendlyName: The name Keychain shows.
    /// - Returns: The DER bytes.
    public func encoded(password: String, friendlyName: String) throws -> Data {
        guard let stack = tessera_sk_X509_new_null() else {
            throw CryptoError.openSSL(.internalFailure, "allocation failed")
        }
        defer { tessera_sk_X509_free(stack) }
        for certificate in additionalCertificates { _ = tessera_sk_X509_push(stack, certificate.pointer) }
        guard let p12 = PKCS12_create(password, friendlyName, privateKey.pointer, certificate.pointer, stack, 0, 0, 0, 0, 0) else {
            throw CryptoError.openSSL(.internalFailure, "could not create the PKCS#12 file")
        }
        defer { PKCS12_free(p12) }
        return try OpenSSL.writeBIO({ i2d_PKCS12_bio($0, p12) == 1 },
                                    failure: CryptoError.openSSL(.internalFailure, "could not encode the PKCS#12 file"))
    }
}
