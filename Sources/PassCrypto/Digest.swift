internal import COpenSSL
public import Foundation

/// Message digests used by pass bundles.
public enum Digest {
    /// SHA-1, as `manifest.json` requires.
    /// - Parameter data: The bytes to hash.
    /// - Returns: The 20-byte digest.
    public static func sha1(_ data: Data) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        data.withUnsafeBytes { raw in
            _ = SHA1(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &digest)
        }
        return digest
    }

    /// SHA-256.
    /// - Parameter bytes: The bytes to hash (`Data`, `[UInt8]`, ...).
    /// - Returns: The 32-byte digest.
    public static func sha256(_ bytes: some ContiguousBytes) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBytes { raw in
            _ = SHA256(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &digest)
        }
        return digest
    }
}

/// SHA-1 over bytes that arrive in pieces (an archive entry read in chunks), so memory does not grow with their size.
public final class SHA1Stream {
    private let context: OpaquePointer

    /// Starts a digest.
    public init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha1(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes.
    /// - Parameter bytes: The next piece.
    public func update(_ bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { raw in
            _ = EVP_DigestUpdate(context, raw.baseAddress, raw.count)
        }
    }

    /// Ends the digest.
    /// - Returns: The 20-byte digest.
    public func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest
    }
}
