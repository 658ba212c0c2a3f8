import ArgumentParser
import Barcodes
import Foundation

/// Barcodes per second per format, as PNG and SVG, next to zint's own `ZBarcode_Encode` time for the same symbol and
/// to the `zint` command-line tool (process spawn included) rendering the same messages in the same run.
struct BarcodeBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "barcode",
        abstract: "Barcodes rendered per second (PNG, SVG) next to zint's encoding time and the zint CLI."
    )

    @Option(help: "Seconds per in-process measurement.")
    var seconds: Double = 2

    @Option(help: "zint command-line runs per format and output type.")
    var cliRuns: Int = 100

    @Option(help: "Only these formats (pdf417, qr, aztec, code128); default all.")
    var format: [String] = []

    func validate() throws {
        guard seconds > 0, cliRuns > 0 else { throw ValidationError("--seconds and --cli-runs must be positive") }
        for name in format where Barcode.Format(name: name) == nil { throw ValidationError("unknown --format \(name)") }
    }

    /// 64 messages per format, shaped like real pass payloads and all the same length.
    static func messages(_ format: Barcode.Format) -> [String] {
        (0..<64).map { index in
            let serial = String(format: "%06d", 314_159 + index * 7)
            switch format {
            case .qr: return "https://passes.example.com/v1/tickets/EVT-2026-\(serial)?seat=12F"
            case .pdf417: return "M1DOE/JOHN            E\(serial) SFOJFKAA 0123 123Y012A0001 100"
            case .aztec: return "TICKET:EVT-2026-\(serial);SEAT:12F;GATE:B7;HOLDER:ZOE MULLER"
            case .code128: return "TKT-2026-\(serial)"
            case .code39: return "TKT-2026-\(serial)"
            case .codabar: return "A2026\(serial)B"
            case .ean13: return "400638\(serial)"
            case .i2of5: return "2026\(serial)"
            }
        }
    }

    func run() throws {
        let formats = format.isEmpty ? [Barcode.Format.pdf417, .qr, .aztec, .code128] : format.compactMap(Barcode.Format.init(name:))
        let configuration = BarcodeRenderer.Configuration()
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString); 1 thread")
        print("")
        print("| format | symbol (modules) | Tessera matrix /s | Tessera PNG /s | Tessera SVG /s | zint `ZBarcode_Encode` /s | zint encode + PNG in process /s | zint CLI PNG /s | zint CLI SVG /s | PNG time ÷ zint encode time | PNG time ÷ zint encode + PNG time |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for format in formats {
            let messages = Self.messages(format)
            let barcodes = messages.map { Barcode(format: format, message: $0) }
            let matrix = try BarcodeRenderer.render(barcodes[0], configuration: configuration)
            _ = try matrix.pngData()  // warm up
            let matrices = try rate { index in _ = try BarcodeRenderer.render(barcodes[index % 64], configuration: configuration) }
            let png = try rate { index in _ = try BarcodeRenderer.render(barcodes[index % 64], configuration: configuration).pngData() }
            let svg = try rate { index in _ = try BarcodeRenderer.render(barcodes[index % 64], configuration: configuration).svg() }
            let zint = try ZintBaseline.measure(format, messages: messages.map { Array($0.utf8) }, seconds: seconds,
                                                configuration: configuration)
            let cliPNG = try ZintCLI.rate(format, messages: messages, runs: cliRuns, fileType: "png")
            let cliSVG = try ZintCLI.rate(format, messages: messages, runs: cliRuns, fileType: "svg")
            let symbol = "\(matrix.width)×\(matrix.height) (scale \(format.defaultScale))"
            print("| \(format.shortName) | \(symbol) | \(Self.number(matrices)) | \(Self.number(png)) | \(Self.number(svg)) | \(Self.number(zint.encodesPerSecond)) "
                + "| \(Self.number(zint.pngsPerSecond)) | \(Self.number(cliPNG)) | \(Self.number(cliSVG)) "
                + "| \(String(format: "%.2f", zint.encodesPerSecond / png))x | \(String(format: "%.2f", zint.pngsPerSecond / png))x |")
        }
        print("")
        print("Tessera matrix: encode to the module matrix only. Tessera PNG/SVG: encode and write the whole file in memory at the")
        print("default scale. zint `ZBarcode_Encode`: that call alone on an already created symbol, same options.")
        print("zint encode + PNG in process: `ZBarcode_Encode` then `ZBarcode_Print` (zint's libpng writer) to /dev/shm, same pixels per module.")
        print("zint CLI: `zint -b N --binary --notext --quietzones --direct --filetype=png|svg -d MESSAGE > /dev/null`, one process per barcode.")
    }

    /// Calls of `body` per second over `seconds`.
    func rate(_ body: (Int) throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + UInt64(seconds * 1e9)
        var count = 0
        while DispatchTime.now().uptimeNanoseconds < deadline {
            try body(count)
            count += 1
        }
        return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    static func number(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }
}

/// The `zint` command-line tool, one process per barcode, writing to /dev/null.
enum ZintCLI {
    static func arguments(_ format: Barcode.Format, message: String, fileType: String) throws -> [String] {
        var arguments = ["--binary", "--notext", "--quietzones", "--direct", "--filetype=\(fileType)",
                         "--scale=\(Double(format.defaultScale) / 2)"]  // zint's raster scale 1 is 2 pixels per module
        switch format {
        case .qr: arguments += ["-b", "58", "--secure=2"]  // BARCODE_QRCODE, level M
        case .pdf417:
            let layout = try PDF417Layout(byteCount: message.utf8.count)
            arguments += ["-b", "55", "--secure=\(layout.securityLevel)", "--cols=\(layout.columns)"]
        case .aztec: arguments += ["-b", "92"]
        case .code128: arguments += ["-b", "20"]
        case .code39: arguments += ["-b", "8"]
        case .codabar: arguments += ["-b", "18"]
        case .ean13: arguments += ["-b", "13"]
        case .i2of5: arguments += ["-b", "3"]
        }
        return arguments + ["-d", message]
    }

    /// Barcodes per second, spawning `zint` for each.
    static func rate(_ format: Barcode.Format, messages: [String], runs: Int, fileType: String) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<runs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/zint")
            process.arguments = try arguments(format, message: messages[index % messages.count], fileType: fileType)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch {
                throw BenchmarkFailure("cannot run /usr/bin/zint (install the zint package: scripts/install-deps.sh): \(error)")
            }
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw BenchmarkFailure("zint \(process.arguments!.joined(separator: " ")) exited \(process.terminationStatus)")
            }
        }
        return Double(runs) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
