internal import CZint

/// One zint symbol, deleted with the object. Every zint call in Tessera goes through this file.
final class ZintSymbol {
    private let symbol: UnsafeMutablePointer<zint_symbol>

    /// zint's symbology numbers for the formats it draws.
    static func symbology(for format: Barcode.Format) -> Int32 {
        switch format {
        case .qr: BARCODE_QRCODE
        case .pdf417: BARCODE_PDF417
        case .aztec: BARCODE_AZTEC
        case .code128: BARCODE_CODE128
        case .code39: BARCODE_CODE39
        case .codabar: BARCODE_CODABAR
        case .ean13: BARCODE_EANX
        case .i2of5: BARCODE_C25INTER
        }
    }

    /// A fresh symbol for `format` taking binary input (`DATA_MODE`, no ECI): the bytes are carried as given.
    /// - Parameters:
    ///   - format: The symbology.
    ///   - option1: zint's `option_1` (PDF417 security level, QR error-correction level 1-4), or -1.
    ///   - option2: zint's `option_2` (PDF417 data columns), or 0.
    init(format: Barcode.Format, option1: Int32 = -1, option2: Int32 = 0) throws {
        guard let symbol = ZBarcode_Create() else {
            throw BarcodeError(.encoderFailure, "format: zint could not allocate a symbol")
        }
        self.symbol = symbol
        symbol.pointee.symbology = Self.symbology(for: format)
        symbol.pointee.input_mode = DATA_MODE
        symbol.pointee.option_1 = option1
        symbol.pointee.option_2 = option2
    }

    deinit { ZBarcode_Delete(symbol) }

    /// Calls `body` with the underlying `zint_symbol`.
    func withUnsafeSymbolPointer<T>(_ body: (UnsafeMutablePointer<zint_symbol>) throws -> T) rethrows -> T {
        try body(symbol)
    }

    /// Encodes `bytes` (`ZBarcode_Encode`); warnings are accepted, errors thrown with zint's text.
    func encode(_ bytes: [UInt8], format: Barcode.Format) throws {
        let status = bytes.withUnsafeBufferPointer { ZBarcode_Encode(symbol, $0.baseAddress, Int32($0.count)) }
        guard status >= ZINT_ERROR else { return }
        let text = withUnsafeBytes(of: &symbol.pointee.errtxt) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if status == ZINT_ERROR_TOO_LONG {
            throw BarcodeError(.messageTooLong, "message: \(bytes.count) bytes do not fit in \(format.rawValue)",
                               libraryError: "zint: \(text)")
        }
        throw BarcodeError(.encoderFailure, "message: zint could not encode it as \(format.rawValue)",
                           libraryError: "zint: \(text)")
    }

    /// The encoded symbol's modules, each zint row repeated to its height (`row_height`, or an equal share of
    /// `height` for rows zint leaves at 0, as PDF417's 3-module rows and Code 128's single row are).
    func matrix(format: Barcode.Format) -> BarcodeMatrix {
        let rows = Int(symbol.pointee.rows)
        let width = Int(symbol.pointee.width)
        let rowHeights: [Float] = withUnsafeBytes(of: &symbol.pointee.row_height) { Array($0.bindMemory(to: Float.self).prefix(rows)) }
        let fixed = rowHeights.filter { $0 > 0 }
        let shared = rowHeights.count > fixed.count
            ? (symbol.pointee.height - fixed.reduce(0, +)) / Float(rowHeights.count - fixed.count) : 0
        let repeats = rowHeights.map { max(1, Int(($0 > 0 ? $0 : shared).rounded())) }
        let total = width * repeats.reduce(0, +)
        let modules = withUnsafeBytes(of: &symbol.pointee.encoded_data) { raw in
            [Bool](unsafeUninitializedCapacity: total) { cells, count in
                let stride = raw.count / 200  // encoded_data is [200][144]: rows of packed bits, least significant first
                var next = 0
                for row in 0..<rows {
                    let start = next
                    for x in 0..<width {
                        (cells.baseAddress! + next).initialize(to: (raw[row * stride + (x >> 3)] >> UInt8(x & 7)) & 1 == 1)
                        next += 1
                    }
                    for _ in 1..<repeats[row] {
                        (cells.baseAddress! + next).initialize(from: cells.baseAddress! + start, count: width)
                        next += width
                    }
                }
                count = next
            }
        }
        return BarcodeMatrix(format: format, width: width, height: modules.count / max(width, 1), modules: modules)
    }
}
