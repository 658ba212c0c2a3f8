import Barcodes
import Foundation
import Testing
import TesseraTestSupport

/// Runs `decode.py` (zxing-cpp, Pillow and Python's zlib) on PNG files: an independent reading of what Tessera drew.
struct IndependentDecoder {
    /// What `decode.py` reported for one file.
    struct Report {
        var chunks: [String] = []
        var width = 0
        var height = 0
        var mode = ""
        var barcodes: [(format: String, hex: String)] = []
        var rows: [String] = []
        var status: Int32 = 0
        var stderr = ""
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("decode.py").path

    /// zxing-cpp's name for each format.
    static func zxingName(_ format: Barcode.Format) -> String {
        switch format {
        case .qr: "QRCode"
        case .pdf417: "PDF417"
        case .aztec: "Aztec"
        case .code128: "Code128"
        case .code39: "Code39"
        case .codabar: "Codabar"
        case .ean13: "EAN13"
        case .i2of5: "ITF"
        }
    }

    /// Decodes `png`; with `moduleScale`, also samples the image once per module.
    static func decode(_ png: URL, moduleScale: Int? = nil) async throws -> Report {
        let arguments = [script] + (moduleScale.map { ["--modules", "\($0)"] } ?? []) + [png.path]
        let result = try await Subprocess.run("python3", arguments)
        var report = Report(status: result.status, stderr: result.stderr)
        for line in result.stdout.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "chunks": report.chunks = Array(words.dropFirst())
            case "image" where words.count == 4:
                report.width = Int(words[1]) ?? 0
                report.height = Int(words[2]) ?? 0
                report.mode = words[3]
            case "barcode" where words.count >= 2: report.barcodes.append((words[1], words.count > 2 ? words[2] : ""))
            case "row" where words.count == 2: report.rows.append(words[1])
            default: break
            }
        }
        return report
    }

    /// Hex of bytes, as `decode.py` prints them.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// A temporary folder for one test's files.
func temporaryFolder() throws -> URL {
    try TemporaryDirectory.make(prefix: "barcodes")
}
