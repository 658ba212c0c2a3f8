internal import CQRencode
import Foundation

/// The libqrencode calls: QR symbols in 8-bit byte mode, so the symbol carries exactly the given bytes.
enum QRencode {
    /// A QR symbol for `bytes`, the smallest version that holds them at `level`.
    /// - Parameters:
    ///   - bytes: The encoded message.
    ///   - level: The error-correction level.
    /// - Returns: The module matrix (libqrencode's own result is freed before returning).
    static func matrix(for bytes: [UInt8], level: BarcodeRenderer.QRErrorCorrection) throws -> BarcodeMatrix {
        errno = 0
        let code = bytes.withUnsafeBufferPointer { buffer in
            QRcode_encodeData(Int32(buffer.count), buffer.baseAddress, 0, eclevel(level))
        }
        guard let code else {
            let failure = errno
            if failure == ERANGE {
                throw BarcodeError(.messageTooLong, "message: \(bytes.count) bytes do not fit in a QR code at "
                    + "error-correction level \(level.rawValue) (at most 2331 at M, 2953 at L)")
            }
            throw BarcodeError(.encoderFailure, "message: libqrencode could not encode it",
                               libraryError: String(cString: strerror(failure)))
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // Bit 0 of each byte is the module's colour (1 = dark); the other bits say which function pattern it is.
        let modules = data.map { $0 & 1 == 1 }
        return BarcodeMatrix(format: .qr, width: width, height: width, modules: modules)
    }

    private static func eclevel(_ level: BarcodeRenderer.QRErrorCorrection) -> QRecLevel {
        switch level {
        case .low: QR_ECLEVEL_L
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
    }
}
