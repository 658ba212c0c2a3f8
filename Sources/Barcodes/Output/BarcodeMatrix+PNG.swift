public import Foundation
import PNGEncoding

extension BarcodeMatrix {
    /// The barcode as a lossless 1-bit greyscale PNG, quiet zone included, each module `scale` × `scale` pixels.
    ///
    /// Scanlines are filtered with PNG's "None" filter, or "Up" when a line repeats the one above (all zero bytes, so
    /// scaled rows cost deflate almost nothing), and compressed by zlib; every chunk carries zlib's CRC-32.
    /// - Parameter scale: Pixels per module, 1-100 (default: the format's `defaultScale`).
    /// - Returns: The PNG file's bytes.
    /// - Throws: `BarcodeError` for a scale out of range or a zlib failure.
    public func pngData(scale: Int? = nil) throws -> Data {
        let scale = scale ?? format.defaultScale
        try Self.checkScale(scale)
        let pixelWidth = fullWidth * scale
        let pixelHeight = fullHeight * scale
        let stride = (pixelWidth + 7) / 8
        // Zero-filled, so an Up-filtered line (identical to the one above) needs only its filter byte.
        var scanlines = [UInt8](repeating: 0, count: pixelHeight * (stride + 1))
        scanlines.withUnsafeMutableBufferPointer { buffer in
            var offset = 0
            var previous: Int?  // the symbol row (or -1 for quiet rows) the last drawn line shows
            for row in 0..<fullHeight {
                let y = (row >= quietZone && row < quietZone + height) ? row - quietZone : -1
                let repeatsPrevious = previous.map { $0 == y || ($0 >= 0 && y >= 0 && rowsEqual($0, y)) } ?? false
                if repeatsPrevious {
                    buffer[offset] = 2  // Up: every byte equals the one above, so the differences are zero
                } else {
                    buffer[offset] = 0  // None
                    let line = buffer.baseAddress! + offset + 1
                    line.update(repeating: 0xFF, count: stride)
                    if y >= 0 { drawRow(y, into: line, scale: scale) }
                    previous = y
                }
                for copy in 1..<scale { buffer[offset + copy * (stride + 1)] = 2 }
                offset += scale * (stride + 1)
            }
        }

        do {
            return try PNGFile.encode(width: pixelWidth, height: pixelHeight, bitDepth: 1, colorType: .greyscale,
                                      filteredScanlines: scanlines)
        } catch let error as PNGEncodingError {
            throw BarcodeError(.encoderFailure, "png: \(error.reason)", libraryError: "zlib")
        }
    }

    /// Darkens the pixels of symbol row `y` in a 1-bit scanline (most significant bit first), quiet zone included.
    private func drawRow(_ y: Int, into line: UnsafeMutablePointer<UInt8>, scale: Int) {
        forEachDarkRun(inRow: y) { start, length in
            Self.clearBits(line, from: (quietZone + start) * scale, count: length * scale)
        }
    }

    /// Clears (darkens) `count` pixels from `start` in a 1-bit scanline.
    private static func clearBits(_ line: UnsafeMutablePointer<UInt8>, from start: Int, count: Int) {
        var pixel = start
        let end = start + count
        while pixel < end && pixel & 7 != 0 {
            line[pixel >> 3] &= ~(0x80 >> UInt8(pixel & 7))
            pixel += 1
        }
        if end - pixel >= 8 {
            (line + (pixel >> 3)).update(repeating: 0, count: (end - pixel) >> 3)
            pixel += (end - pixel) & ~7
        }
        while pixel < end {
            line[pixel >> 3] &= ~(0x80 >> UInt8(pixel & 7))
            pixel += 1
        }
    }
}
