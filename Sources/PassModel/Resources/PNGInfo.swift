public import Foundation
internal import PNGEncoding

/// The header of a PNG image: its signature and `IHDR` chunk, enough to know it is a PNG and its size.
public struct PNGInfo: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bits per sample (1, 2, 4, 8 or 16).
    public var bitDepth: Int
    /// PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA).
    public var colorType: Int

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the PNG signature and `IHDR` chunk (checking its CRC).
    /// - Parameter data: The file's bytes; only the first 33 are read.
    /// - Throws: ``PassModelError`` `invalidPNG` with the reason.
    public init(data: Data) throws {
        let bytes = [UInt8](data.prefix(33))
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.signature else {
            throw PassModelError(.invalidPNG, "not a PNG file (the PNG signature is missing)")
        }
        guard bytes.count >= 33 else {
            throw PassModelError(.invalidPNG, "PNG file is truncated before the end of its IHDR chunk")
        }
        func uint32(_ offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard uint32(8) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw PassModelError(.invalidPNG, "PNG file does not start with an IHDR chunk")
        }
        guard Zlib.crc(bytes[12..<29]) == uint32(29) else {
            throw PassModelError(.invalidPNG, "PNG IHDR chunk has a wrong checksum (the file is damaged)")
        }
        let width = uint32(16)
        let height = uint32(20)
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw PassModelError(.invalidPNG, "PNG size \(width)×\(height) is invalid")
        }
        self.width = Int(width)
        self.height = Int(height)
        bitDepth = Int(bytes[24])
        colorType = Int(bytes[25])
    }

    /// The most pixels an image of a pass's own may have: 4096 × 4096, far above any size Wallet shows (a strip at
    /// @3x is 1125 × 369), so that checking an image never inflates more than 128 MiB (16-bit RGBA at that size).
    public static let maximumPixels = 4096 * 4096

    /// Checks the whole file, as a device must read it to show it, and returns its header: every chunk whole and
    /// with its checksum, the image data (the `IDAT` chunks, one after another) a complete zlib stream holding exactly
    /// the rows the header's size, depth, colour type and interlacing call for, and an `IEND` chunk. A file whose
    /// header alone is right (cut short, damaged, without image data) is refused here rather than signed into a pass.
    /// - Throws: ``PassModelError`` `invalidPNG` with the reason.
    @discardableResult
    public static func checkWhole(_ data: Data) throws -> PNGInfo {
        let info = try PNGInfo(data: data)
        guard info.width * info.height <= maximumPixels else {
            throw PassModelError(.invalidPNG, "\(info.width)×\(info.height) pixels is more than any image Wallet shows "
                                 + "(at most \(maximumPixels) pixels)")
        }
        let bytes = [UInt8](data)
        // PNG defines one compression method and one filter method (0 each), and interlacing none (0) or Adam7 (1):
        // a decoder refuses anything else.
        guard bytes[26] == 0, bytes[27] == 0, bytes[28] <= 1 else {
            let (what, value) = bytes[26] != 0 ? ("compression method", bytes[26])
                : bytes[27] != 0 ? ("filter method", bytes[27]) : ("interlace method", bytes[28])
            throw PassModelError(.invalidPNG, "PNG \(what) \(value) is not one PNG defines")
        }
        func uint32(_ offset: Int) -> Int {
            Int(bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        var offset = 8
        var imageData: [UInt8] = []
        var sawImageData = false, imageDataEnded = false, sawEnd = false, sawPalette = false
        while offset < bytes.count, !sawEnd {
            guard offset + 12 <= bytes.count, offset + 12 + uint32(offset) <= bytes.count else {
                throw PassModelError(.invalidPNG, "PNG file is truncated (a chunk runs past the end of the file)")
            }
            let length = uint32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard Zlib.crc(bytes[offset + 4..<offset + 8 + length]) == UInt32(uint32(offset + 8 + length)) else {
                throw PassModelError(.invalidPNG, "PNG \(type) chunk has a wrong checksum (the file is damaged)")
            }
            switch type {
            case "PLTE":
                sawPalette = true
                if sawImageData { imageDataEnded = true }
            case "IDAT":
                // A palette image's pixels are indexes into its palette, which must come first.
                guard info.colorType != 3 || sawPalette else {
                    throw PassModelError(.invalidPNG, "PNG palette image has no palette (no PLTE chunk before its image data)")
                }
                guard !imageDataEnded else {
                    throw PassModelError(.invalidPNG, "PNG image data is split by other chunks (IDAT chunks must follow one another)")
                }
                sawImageData = true
                imageData += bytes[offset + 8..<offset + 8 + length]
            case "IEND":
                sawEnd = true
            default:
                if sawImageData { imageDataEnded = true }
            }
            offset += 12 + length
        }
        guard sawImageData else { throw PassModelError(.invalidPNG, "PNG file has no image data (no IDAT chunk)") }
        guard sawEnd else { throw PassModelError(.invalidPNG, "PNG file is truncated (no IEND chunk)") }
        guard let expected = info.rawDataLength(interlaced: bytes[28] == 1) else {
            throw PassModelError(.invalidPNG, "PNG bit depth \(info.bitDepth) with colour type \(info.colorType) is not a valid combination")
        }
        guard Zlib.inflatedLength(imageData, limit: expected) == expected else {
            throw PassModelError(.invalidPNG, "PNG image data is damaged or does not hold the \(info.width)×\(info.height) image "
                                 + "its header describes")
        }
        return info
    }

    /// The length of the image's filtered rows once inflated (a filter byte and the row's bytes, per row of each
    /// Adam7 pass when interlaced), or `nil` for a depth and colour type PNG does not allow.
    func rawDataLength(interlaced: Bool) -> Int? {
        let channels: Int
        switch (colorType, bitDepth) {
        case (0, 1), (0, 2), (0, 4), (0, 8), (0, 16): channels = 1
        case (2, 8), (2, 16): channels = 3
        case (3, 1), (3, 2), (3, 4), (3, 8): channels = 1
        case (4, 8), (4, 16): channels = 2
        case (6, 8), (6, 16): channels = 4
        default: return nil
        }
        func length(_ width: Int, _ height: Int) -> Int {
            guard width > 0, height > 0 else { return 0 }
            return height * (1 + (width * channels * bitDepth + 7) / 8)
        }
        guard interlaced else { return length(width, height) }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { total, pass in
            let (x, y, dx, dy) = pass
            return total + length((width - x + dx - 1) / dx, (height - y + dy - 1) / dy)
        }
    }
}
