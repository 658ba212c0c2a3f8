internal import CLibz
import Foundation
import Synchronization

/// The zlib calls: deflate for PNG image data and CRC-32 for PNG chunks (written here, checked by `PassModel`'s
/// `PNGInfo`).
package enum Zlib {
    /// `bytes` as a zlib stream (RFC 1950), as a PNG `IDAT` holds it.
    ///
    /// Deflate runs at zlib's fastest level (`Z_BEST_SPEED`): a barcode PNG is well under 1 KB either way (level 6
    /// saves 5-40% of that at two to five times the time), and a pass preview compresses in a fraction of the time
    /// level 6 takes. Streams are reused (`deflateReset`) rather than set up per image, because allocating zlib's
    /// state costs about as much as compressing a barcode.
    /// - Parameter bytes: The filtered scanlines.
    /// - Returns: The compressed stream.
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        let stream = try DeflateStream.pool.take()
        defer { DeflateStream.pool.give(stream) }
        return try stream.compress(bytes)
    }

    /// The length of a zlib stream's content once inflated, reading at most `limit` bytes of it, or `nil` when the
    /// stream is not a complete zlib stream (damaged, cut short, or with bytes after its end).
    /// - Parameters:
    ///   - bytes: The zlib stream (a PNG's `IDAT` data, its chunks joined).
    ///   - limit: The most inflated bytes to produce; a stream that inflates to more answers `limit + 1`.
    package static func inflatedLength(_ bytes: [UInt8], limit: Int) -> Int? {
        var stream = z_stream()
        guard tessera_inflateInit(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var total = 0
        return bytes.withUnsafeBufferPointer { source -> Int? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { output -> Int32 in
                    stream.next_out = output.baseAddress
                    stream.avail_out = uInt(output.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    total += output.count - Int(stream.avail_out)
                    return status
                }
                if total > limit { return limit + 1 }
                switch status {
                case Z_STREAM_END: return stream.avail_in == 0 ? total : nil
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in == 0: return nil  // cut short
                default: return nil
                }
            }
        }
    }

    /// The CRC-32 of `bytes`, continuing from `crc` (0 to start).
    /// - Parameters:
    ///   - bytes: The data.
    ///   - crc: The running CRC.
    /// - Returns: The updated CRC.
    package static func crc(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(uLong(crc), buffer.baseAddress, uInt(buffer.count)))
        }
    }
}

/// One zlib deflate stream, ended with the object.
final class DeflateStream: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>

    /// Idle streams, shared by every thread; at most `limit` are kept.
    static let pool = Pool()

    init() throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = tessera_deflateInit2(stream, Z_BEST_SPEED, 15, 6, Z_DEFAULT_STRATEGY)
        guard status == Z_OK else {
            stream.deallocate()
            throw PNGEncodingError("zlib could not start a deflate stream: \(Self.text(status))")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses `bytes` in one call, then resets the stream for the next image.
    func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        defer { deflateReset(stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(bytes.count))))
        var status: Int32 = Z_OK
        let written = bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = destination.baseAddress
                stream.pointee.avail_out = uInt(destination.count)
                status = deflate(stream, Z_FINISH)
                return destination.count - Int(stream.pointee.avail_out)
            }
        }
        guard status == Z_STREAM_END else {
            let text = stream.pointee.msg.map { String(cString: $0) } ?? Self.text(status)
            throw PNGEncodingError("zlib could not compress the image: \(text)")
        }
        output.removeSubrange(written...)
        return output
    }

    private static func text(_ status: Int32) -> String {
        zError(status).map { String(cString: $0) } ?? "status \(status)"
    }

    /// A lock-protected stack of idle streams.
    final class Pool: Sendable {
        private let idle = Mutex<[DeflateStream]>([])
        private let limit = 16

        func take() throws -> DeflateStream {
            if let stream = idle.withLock({ $0.popLast() }) { return stream }
            return try DeflateStream()
        }

        func give(_ stream: sending DeflateStream) {
            idle.withLock { idle in if idle.count < limit { idle.append(stream) } }
        }
    }
}
