import Barcodes
internal import CZint
import Dispatch
import Foundation

/// zint's own encoding time, the yardstick for Tessera's PNG path: `ZBarcode_Encode` alone, timed call by call on a
/// symbol configured as Tessera configures it (binary input; PDF417 level and columns; QR level). Every raw zint call of
/// the benchmark is in this file.
enum ZintBaseline {
    struct Result {
        /// `ZBarcode_Encode` calls per second.
        var encodesPerSecond: Double
        /// `ZBarcode_Encode` followed by `ZBarcode_Print` to a PNG in /dev/shm (zint's own libpng output at the same
        /// pixels per module and quiet zones), per second.
        var pngsPerSecond: Double
        /// Modules across and zint rows of the last symbol.
        var width: Int
        var rows: Int
    }

    /// Times `ZBarcode_Encode` over `messages` (cycled) for about `seconds` of encoding.
    static func measure(_ format: Barcode.Format, messages: [[UInt8]], seconds: Double,
                        configuration: BarcodeRenderer.Configuration) throws -> Result {
        var encodeNanoseconds: UInt64 = 0
        var printNanoseconds: UInt64 = 0
        var count = 0
        let outfile = "/dev/shm/tessera-bench-zint-\(getpid()).png"
        defer { unlink(outfile) }
        var width = 0
        var rows = 0
        let budget = UInt64(seconds * 1e9)
        while encodeNanoseconds < budget {
            let message = messages[count % messages.count]
            guard let symbol = ZBarcode_Create() else { throw BenchmarkFailure("ZBarcode_Create failed") }
            defer { ZBarcode_Delete(symbol) }
            symbol.pointee.input_mode = DATA_MODE
            switch format {
            case .qr:
                symbol.pointee.symbology = BARCODE_QRCODE
                symbol.pointee.option_1 = Int32(BarcodeRenderer.QRErrorCorrection.allCases
                    .firstIndex(of: configuration.qrErrorCorrection)! + 1)
            case .pdf417:
                let layout = try PDF417Layout(byteCount: message.count, configuration: configuration)
                symbol.pointee.symbology = BARCODE_PDF417
                symbol.pointee.option_1 = Int32(layout.securityLevel)
                symbol.pointee.option_2 = Int32(layout.columns)
            case .aztec:
                symbol.pointee.symbology = BARCODE_AZTEC
            case .code128:
                symbol.pointee.symbology = BARCODE_CODE128
            case .code39:
                symbol.pointee.symbology = BARCODE_CODE39
            case .codabar:
                symbol.pointee.symbology = BARCODE_CODABAR
            case .ean13:
                symbol.pointee.symbology = BARCODE_EANX
            case .i2of5:
                symbol.pointee.symbology = BARCODE_C25INTER
            }
            let start = DispatchTime.now().uptimeNanoseconds
            let status = message.withUnsafeBufferPointer { ZBarcode_Encode(symbol, $0.baseAddress, Int32($0.count)) }
            encodeNanoseconds += DispatchTime.now().uptimeNanoseconds - start
            guard status < ZINT_ERROR else { throw BenchmarkFailure("ZBarcode_Encode failed with status \(status)") }
            // zint's raster X-dimension is 2 pixels at scale 1.
            symbol.pointee.scale = Float(format.defaultScale) / 2
            symbol.pointee.output_options |= BARCODE_QUIET_ZONES
            symbol.pointee.show_hrt = 0
            withUnsafeMutableBytes(of: &symbol.pointee.outfile) { buffer in
                buffer.initializeMemory(as: UInt8.self, repeating: 0)
                for (index, byte) in outfile.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
            }
            let printStart = DispatchTime.now().uptimeNanoseconds
            let printed = ZBarcode_Print(symbol, 0)
            printNanoseconds += DispatchTime.now().uptimeNanoseconds - printStart
            guard printed < ZINT_ERROR else { throw BenchmarkFailure("ZBarcode_Print failed with status \(printed)") }
            width = Int(symbol.pointee.width)
            rows = Int(symbol.pointee.rows)
            count += 1
        }
        return Result(encodesPerSecond: Double(count) / (Double(encodeNanoseconds) / 1e9),
                      pngsPerSecond: Double(count) / (Double(encodeNanoseconds + printNanoseconds) / 1e9),
                      width: width, rows: rows)
    }
}

/// A benchmark that could not run.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
