internal import CLibz
import Foundation

/// The zlib call the bundle writer makes: CRC-32, the checksum every ZIP entry carries.
enum Zlib {
    /// The CRC-32 of `bytes` (zlib's `crc32_z`, which works on several bytes at a time).
    /// - Parameter bytes: The data.
    /// - Returns: The checksum a ZIP header stores for it.
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return UInt32(truncatingIfNeeded: crc32_z(0, base.assumingMemoryBound(to: Bytef.self), z_size_t(bytes.count)))
    }

    /// The CRC-32 of `data`.
    /// - Parameter data: The data.
    /// - Returns: The checksum.
    static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { crc32($0) }
    }
}
