import CRsvg
import Foundation

/// Encodes a cairo ARGB32 image as an 8-bit RGBA PNG, faster than `cairo_surface_write_to_png`.
///
/// cairo's writer hands libpng its default settings: zlib level 6 and adaptive filtering, which on a 640×820
/// preview costs several times the drawing itself. Here every row uses the Up filter and GLib's zlib compressor
/// runs at level 1: files come out about a third larger, in a fraction of the time.
enum PNGEncoder {
    /// zlib compression level (1 fastest, 9 smallest).
    static let level: Int32 = 1

    /// PNG bytes for `height` rows of `width` premultiplied ARGB32 pixels (native endian), `stride` bytes apart.
    static func encode(pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) throws -> Data {
        let filtered = filteredRows(pixels: pixels, width: width, height: height, stride: stride)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, 6, 0, 0, 0]  // 8 bits per channel, RGBA, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", try deflate(filtered), to: &png)
        appendChunk("IEND", [], to: &png)
        return Data(png)
    }

    /// Each row as straight (unpremultiplied) RGBA after a filter-type byte of 2 (Up: minus the row above).
    static func filteredRows(pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> [UInt8] {
        let rowBytes = width * 4
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        return [UInt8](unsafeUninitializedCapacity: (rowBytes + 1) * height) { output, count in
            for y in 0..<height {
                let row = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                current.withUnsafeMutableBufferPointer { line in
                    for x in 0..<width {
                        let argb = row[x]
                        let alpha = argb >> 24
                        var (red, green, blue) = ((argb >> 16) & 0xFF, (argb >> 8) & 0xFF, argb & 0xFF)
                        if alpha != 255 && alpha != 0 {
                            red = min(255, (red * 255 + alpha / 2) / alpha)
                            green = min(255, (green * 255 + alpha / 2) / alpha)
                            blue = min(255, (blue * 255 + alpha / 2) / alpha)
                        }
                        line[x * 4] = UInt8(truncatingIfNeeded: red)
                        line[x * 4 + 1] = UInt8(truncatingIfNeeded: green)
                        line[x * 4 + 2] = UInt8(truncatingIfNeeded: blue)
                        line[x * 4 + 3] = UInt8(truncatingIfNeeded: alpha)
                    }
                }
                let start = y * (rowBytes + 1)
                output[start] = 2
                for index in 0..<rowBytes {
                    output[start + 1 + index] = current[index] &- previous[index]
                }
                swap(&previous, &current)
            }
            count = (rowBytes + 1) * height
        }
    }

    /// `bytes` as a zlib stream, by GLib's `GZlibCompressor`.
    static func deflate(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let compressor = g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_ZLIB, level) else {
            throw PassPreviewError(.rasterizerFailure, "cannot compress the preview")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(compressor)) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 4)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while true {
            var read: gsize = 0
            var written: gsize = 0
            var error: UnsafeMutablePointer<GError>?
            let result = bytes.withUnsafeBytes { input in
                chunk.withUnsafeMutableBytes { out in
                    g_converter_convert(compressor, input.baseAddress.map { $0 + offset }, gsize(input.count - offset),
                                        out.baseAddress, gsize(out.count), G_CONVERTER_INPUT_AT_END, &read, &written, &error)
                }
            }
            if result == G_CONVERTER_ERROR { throw SVGRasterizer.failure("cannot compress the preview", error) }
            offset += Int(read)
            output += chunk.prefix(Int(written))
            if result == G_CONVERTER_FINISHED { return output }
        }
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let body = Array(type.utf8) + data
        png += body
        appendBigEndian(crc32(body), to: &png)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The PNG (ISO 3309) CRC-32 of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        crcTable.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            return crc ^ 0xFFFF_FFFF
        }
    }
}
