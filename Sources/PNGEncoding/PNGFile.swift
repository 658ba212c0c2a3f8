public import Foundation

/// Writes PNG files from filtered scanlines: the signature, `IHDR`, one zlib-compressed `IDAT` and `IEND`, every chunk
/// with zlib's CRC-32. Used by barcodes (1-bit greyscale) and pass previews (8-bit RGBA).
public enum PNGFile {
    /// The PNG colour types Tessera writes.
    public enum ColorType: UInt8, Sendable {
        /// Greyscale (1, 2, 4, 8 or 16 bits).
        case greyscale = 0
        /// Red, green, blue and alpha (8 or 16 bits per channel).
        case rgba = 6
    }

    /// Encodes an image whose scanlines are already filtered (each row: a filter-type byte, then the row's bytes).
    /// - Parameters:
    ///   - width: Pixels per row.
    ///   - height: Rows.
    ///   - bitDepth: Bits per channel.
    ///   - colorType: The colour type.
    ///   - filteredScanlines: `height` rows of `1 + ceil(width × channels × bitDepth / 8)` bytes.
    /// - Returns: The PNG file's bytes.
    /// - Throws: ``PNGEncodingError`` when zlib fails.
    public static func encode(width: Int, height: Int, bitDepth: UInt8, colorType: ColorType,
                              filteredScanlines: [UInt8]) throws -> Data {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [bitDepth, colorType.rawValue, 0, 0, 0]  // deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", try Zlib.compress(filteredScanlines), to: &png)
        appendChunk("IEND", [], to: &png)
        return Data(png)
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeStart = png.count
        png += Array(type.utf8)
        png += data
        appendBigEndian(Zlib.crc(png[typeStart...]), to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                  UInt8(truncatingIfNeeded: value)]
    }
}

/// zlib failed while writing a PNG; the reason carries zlib's own message.
public struct PNGEncodingError: Error, CustomStringConvertible, Sendable {
    /// What failed, with zlib's message.
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
