import Foundation
import Testing
import TesseraTestSupport

/// `tessera barcode` run as a subprocess: files that decode, and exit codes 0, 1 and 2.
@Suite("tessera barcode")
struct BarcodeCommandTests {
    let work: URL

    init() async throws { work = try temporaryFolder() }

    @Test(arguments: ["pdf417", "qr", "aztec", "code128"])
    func pngFileDecodesToTheMessage(_ format: String) async throws {
        let output = work.appendingPathComponent("\(format).png")
        // Code 128 is read as ISO-8859-1: its "ë" is one byte in that encoding (in UTF-8 it is refused).
        let latin1 = format == "code128"
        let message = "Zoë-\(format)-7"
        let result = try await Subprocess.tessera(["barcode", "--format", format, "--message", message,
                                             "--encoding", latin1 ? "iso-8859-1" : "utf-8", "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(output.path))
        let report = try await IndependentDecoder.decode(output)
        let bytes = latin1 ? Array(try #require(message.data(using: .isoLatin1))) : Array(message.utf8)
        #expect(report.barcodes.first?.hex == IndependentDecoder.hex(bytes))
        // No temporary file is left beside the output.
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["\(format).png"])
    }

    @Test func scaleAndErrorCorrectionAreApplied() async throws {
        let low = work.appendingPathComponent("l.png")
        let high = work.appendingPathComponent("h.png")
        for (level, file) in [("L", low), ("H", high)] {
            let result = try await Subprocess.tessera(["barcode", "--format", "qr", "--message", "LEVELS-0123456789",
                                                 "--ec-level", level, "--scale", "2", "--output", file.path])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let lowReport = try await IndependentDecoder.decode(low)
        let highReport = try await IndependentDecoder.decode(high)
        #expect(lowReport.width == (21 + 8) * 2)
        #expect(highReport.width > lowReport.width)
        #expect(highReport.barcodes.first?.hex == IndependentDecoder.hex(Array("LEVELS-0123456789".utf8)))
    }

    @Test func svgFileHasTheAltText() async throws {
        let output = work.appendingPathComponent("ticket.svg")
        let result = try await Subprocess.tessera(["barcode", "--format", "pdf417", "--message", "SVG-1", "--alt-text", "Seat 12F",
                                             "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOf: output, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains("shape-rendering=\"crispEdges\""))
        #expect(svg.contains(">Seat 12F</text>"))
    }

    @Test func unencodableMessageExitsOneNamingTheCharacter() async throws {
        let output = work.appendingPathComponent("euro.png")
        let result = try await Subprocess.tessera(["barcode", "--format", "code128", "--message", "5€", "--output", output.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: message: character \"€\" at position 2"))
        let latin = try await Subprocess.tessera(["barcode", "--format", "qr", "--message", "Zoë – 1", "--output", output.path])
        #expect(latin.status == 1)
        #expect(latin.stderr.contains("\"–\" at position 5 cannot be encoded in iso-8859-1"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test(arguments: [
        ["--format", "qr", "--message", "X", "--output", "x.gif"],
        ["--format", "upca", "--message", "X", "--output", "x.png"],
        ["--format", "qr", "--message", "X", "--output", "x.png", "--scale", "0"],
        ["--format", "pdf417", "--message", "X", "--output", "x.png", "--ec-level", "H"],
        ["--format", "qr", "--message", "X", "--output", "x.png", "--ec-level", "Z"],
        ["--format", "qr", "--output", "x.png"],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) async throws {
        let result = try await Subprocess.tessera(["barcode"] + arguments, in: work)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
    }
}
