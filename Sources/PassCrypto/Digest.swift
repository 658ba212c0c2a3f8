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

    /// Lower-case hexadecimal.
    /// - Parameter bytes: The bytes to format.
    /// - Returns: Two hex digits per byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
