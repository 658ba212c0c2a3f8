public import Foundation

/// Small PNG files made in tests: whole PNGs (header, image data of transparent pixels, end) of any size, with a
/// comment that makes each file's bytes its own and, when asked, pads it to a given size.
public enum TestPNG {
    /// A PNG of `width` × `height` pixels (8-bit RGBA) with a `tEXt` comment.
    /// - Parameters:
    ///   - width: Pixels across.
    ///   - height: Pixels down.
    ///   - comment: Text stored in the file, so that two images of one size differ.
    ///   - padding: Bytes added to the comment (to make a large file).
    /// - Returns: The file's bytes.
    public static func make(width: Int, height: Int, comment: String = "x", padding: Int = 0) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0])
        bytes += chunk("tEXt", Array("Comment".utf8) + [0] + Array((comment + String(repeating: "-", count: padding)).utf8))
        bytes += chunk("IDAT", zlibStored([UInt8](repeating: 0, count: height * (1 + width * 4))))
        bytes += chunk("IEND", [])
        return Data(bytes)
    }

    /// `bytes` as a zlib stream of stored (uncompressed) deflate blocks, with its Adler-32.
    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final: UInt8 = offset + count == bytes.count ? 1 : 0
            stream += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            stream += bytes[offset..<offset + count]
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return stream + bigEndian(b << 16 | a)
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
