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

/// The hash a bundle's `manifest.json` lists for each file: SHA-1 for passes, SHA-256 for orders.
public enum DigestAlgorithm: String, Sendable, Hashable {
    /// SHA-1 (20 bytes), as `pass.json` bundles use.
    case sha1 = "SHA-1"
    /// SHA-256 (32 bytes), as order bundles use.
    case sha256 = "SHA-256"

    /// The digest of `data`.
    /// - Parameter data: The bytes to hash.
    /// - Returns: The digest.
    public func digest(_ data: Data) -> [UInt8] {
        switch self {
        case .sha1: Digest.sha1(data)
        case .sha256: Digest.sha256(data)
        }
    }

    /// The number of hex digits of a digest: 40 or 64.
    public var hexLength: Int { self == .sha1 ? 40 : 64 }
}

/// A digest over bytes that arrive in pieces (an archive entry read in chunks), so memory does not grow with their size.
public final class DigestStream {
    private let context: OpaquePointer

    /// Starts a digest.
    /// - Parameter algorithm: SHA-1 or SHA-256.
    public init(_ algorithm: DigestAlgorithm = .sha1) {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, algorithm == .sha1 ? EVP_sha1() : EVP_sha256(), nil)
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
    /// - Returns: The digest (20 bytes for SHA-1, 32 for SHA-256).
    public func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }
}
