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
}
