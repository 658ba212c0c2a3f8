internal import COpenSSL
public import Foundation
internal import Validation

/// A private key (RSA or EC), owned and freed with the object.
public final class PrivateKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of an `EVP_PKEY*`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// The key algorithm and size, e.g. "RSA 2048" or "EC 256".
    public var algorithmDescription: String {
        let bits = EVP_PKEY_get_bits(pointer)
        switch EVP_PKEY_get_base_id(pointer) {
        case EVP_PKEY_RSA: return "RSA \(bits)"
        case EVP_PKEY_EC: return "EC \(bits)"
        default: return "key \(bits)"
        }
    }

    /// Reads a private key from PEM (PKCS#1 `RSA PRIVATE KEY`, PKCS#8 `PRIVATE KEY` or `ENCRYPTED PRIVATE KEY`,
    /// SEC1 `EC PRIVATE KEY`, including legacy `Proc-Type: 4,ENCRYPTED` keys) or DER (PKCS#8, PKCS#1, SEC1).
    /// - Parameters:
    ///   - data: The key bytes.
    ///   - password: The password for an encrypted key.
    ///   - source: A name for error messages, such as the file path.
    public convenience init(data: Data, password: String? = nil, source: String = "private key") throws {
        // Keys encrypted by older tools (single DES, `openssl genrsa -des`; PKCS#8 v1 with RC2) need OpenSSL 3's
        // legacy ciphers, as Keychain's .p12 files do: without them the right password reads as a wrong one.
        let legacyLoaded = OpenSSL.legacyProvidersLoaded
        OpenSSL.clearErrors()
        let text = String(decoding: data.prefix(8192), as: UTF8.self)
        let isPEM = text.contains("-----BEGIN")
        let isEncrypted = text.contains("ENCRYPTED")
        if isEncrypted && password == nil {
            throw CryptoError(.passwordRequired,
                              "\(source): the key is encrypted and no password was given")
        }
        let key: OpaquePointer? = try OpenSSL.withReadBIO(data) { bio in
            Self.withOptionalCString(password) { passwordPointer in
                let userdata = UnsafeMutableRawPointer(mutating: passwordPointer)
                if isPEM {
                    return PEM_read_bio_PrivateKey(bio, nil, tessera_password_callback_pointer(), userdata)
                }
                if isEncrypted || password != nil, let key = d2i_PKCS8PrivateKey_bio(bio, nil, tessera_password_callback_pointer(), userdata) {
                    return key
                }
                _ = tessera_BIO_reset(bio)
                return d2i_PrivateKey_bio(bio, nil)
            }
        }
        guard let key else {
            let errors = OpenSSL.drainErrors()
            if isEncrypted, !legacyLoaded, errors.contains(where: { $0.contains("unsupported") }) {
                throw CryptoError(.invalidKey, "\(source): the key is encrypted with a cipher this OpenSSL does not offer "
                    + "(its legacy provider, for DES and RC2, is not installed): re-encrypt it with "
                    + "`openssl pkcs8 -topk8 -v2 aes-256-cbc`", openSSLErrors: errors)
            }
            let badPassword = errors.contains { $0.contains("bad decrypt") || $0.contains("password") || $0.contains("unsupported") && isEncrypted }
            if isEncrypted && badPassword {
                throw CryptoError(.wrongPassword, "\(source): wrong password for the encrypted key", openSSLErrors: errors)
            }
            throw CryptoError(.invalidKey, "\(source): not a PEM or DER private key (PKCS#1, PKCS#8 or SEC1)", openSSLErrors: errors)
        }
        self.init(taking: key)
    }

    /// Reads a private key file.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - password: The password for an encrypted key.
    public convenience init(contentsOf path: String, password: String? = nil) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CryptoError(.invalidKey, "\(path): \(FileReading.problem(at: path))")
        }
        try self.init(data: data, password: password, source: path)
    }

    /// Generates a new RSA key.
    /// - Parameter bits: The modulus size (2048 for Pass Type ID certificates).
    /// - Returns: The key.
    public static func generateRSA(bits: Int = 2048) throws -> PrivateKey {
        guard let key = tessera_EVP_RSA_gen(UInt32(bits)) else {
            throw CryptoError.openSSL(.internalFailure, "RSA key generation failed")
        }
        return PrivateKey(taking: key)
    }

    /// Generates a new EC key on P-256.
    /// - Returns: The key.
    public static func generateP256() throws -> PrivateKey {
        guard let key = tessera_EVP_EC_gen("P-256") else {
            throw CryptoError.openSSL(.internalFailure, "EC key generation failed")
        }
        return PrivateKey(taking: key)
    }

    /// The key as PKCS#8 PEM, encrypted with AES-256-CBC when a password is given.
    /// - Parameter password: The password to encrypt with, or `nil` for a plain key.
    /// - Returns: The PEM text.
    public func pkcs8PEM(password: String? = nil) throws -> String {
        let data = try OpenSSL.writeBIO({ bio in
            Self.withOptionalCString(password) { passwordPointer in
                let cipher = password == nil ? nil : EVP_aes_256_cbc()
                let userdata = UnsafeMutableRawPointer(mutating: passwordPointer)
                return PEM_write_bio_PKCS8PrivateKey(bio, pointer, cipher, nil, 0, tessera_password_callback_pointer(), userdata) == 1
            }
        }, failure: CryptoError.openSSL(.internalFailure, "could not encode the private key"))
        return String(decoding: data, as: UTF8.self)
    }

    /// The key in its traditional PEM form (PKCS#1 `RSA PRIVATE KEY` or SEC1 `EC PRIVATE KEY`).
    /// - Returns: The PEM text.
    public func traditionalPEM() throws -> String {
        let data = try OpenSSL.writeBIO({ bio in
            PEM_write_bio_PrivateKey_traditional(bio, pointer, nil, nil, 0, nil, nil) == 1
        }, failure: CryptoError.openSSL(.internalFailure, "could not encode the private key"))
        return String(decoding: data, as: UTF8.self)
    }

    static func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
