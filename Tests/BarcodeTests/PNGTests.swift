import Barcodes
import Foundation
import Testing

/// PNG structure, checked by Python's zlib and Pillow, and the pixels sampled once per module.
@Suite("PNG output")
struct PNGTests {
    static let samples: [Barcode] = [
        Barcode(format: .qr, message: "https://example.com/pass/1"),
        Barcode(format: .pdf417, message: "M1DOE/JOHN            EABC123 SFOJFKAA 0123 123Y012A0001 100"),
        Barcode(format: .aztec, message: "AZTEC-12345"),
        Barcode(format: .code128, message: "CODE-128"),
    ]

    @Test(arguments: samples, [1, 3, 8])
    func headerSizeAndPixelsMatchTheMatrix(_ barcode: Barcode, scale: Int) async throws {
        let matrix = try BarcodeRenderer.render(barcode)
        let png = [UInt8](try matrix.pngData(scale: scale))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: png[12..<16], as: UTF8.self) == "IHDR")
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == (matrix.width + 2 * barcode.format.quietZone) * scale)
        #expect(height == (matrix.height + 2 * barcode.format.quietZone) * scale)
        #expect(Array(png[24..<29]) == [1, 0, 0, 0, 0], "1-bit greyscale, no interlace")

        let file = try temporaryFolder().appendingPathComponent("sample.png")
        try Data(png).write(to: file)
        let report = try await IndependentDecoder.decode(file, moduleScale: scale)
        #expect(report.chunks == ["IHDR", "IDAT", "IEND"], "\(report.stderr)")
        #expect(report.width == width && report.height == height)
        #expect(report.mode == "1")
        #expect(report.rows == Self.expectedRows(matrix), "sampled pixels differ from the module matrix")
        if scale >= 3 {
            #expect(report.barcodes.first?.hex == IndependentDecoder.hex(try barcode.encodedMessage()))
        }
    }

    @Test func quietZoneIsLightAndSymbolsTouchIt() throws {
        for barcode in Self.samples {
            let matrix = try BarcodeRenderer.render(barcode)
            let rows = Self.expectedRows(matrix)
            let quiet = matrix.quietZone
            #expect(rows.prefix(quiet).allSatisfy { !$0.contains("#") })
            #expect(rows.allSatisfy { !$0.prefix(quiet).contains("#") && !$0.suffix(quiet).contains("#") })
            // The symbol reaches its own edges: its first column has a dark module.
            #expect((0..<matrix.height).contains { matrix[0, $0] }, "\(barcode.format)")
        }
    }

    @Test func pdf417IsWideAndGrowsItsErrorCorrectionWithLength() throws {
        for length in [10, 80, 300, 900] {
            let message = String(repeating: "0123456789ABCDEFGHIJ", count: 50).prefix(length)
            let matrix = try BarcodeRenderer.render(Barcode(format: .pdf417, message: String(message)))
            let aspect = Double(matrix.width) / Double(matrix.height)
            #expect(aspect > 1.8 && aspect < 6, "length \(length): \(matrix.width)x\(matrix.height)")
        }
        #expect(try PDF417Layout(byteCount: 20).securityLevel == 2)
        #expect(try PDF417Layout(byteCount: 150).securityLevel == 3)
        #expect(try PDF417Layout(byteCount: 300).securityLevel == 4)
        #expect(try PDF417Layout(byteCount: 900).securityLevel == 5)
        #expect(try PDF417Layout(byteCount: 1200).securityLevel == 6)
    }

    @Test func scaledRowsCompressToAlmostNothing() throws {
        let matrix = try BarcodeRenderer.render(Barcode(format: .qr, message: "SIZE"))
        let small = try matrix.pngData(scale: 1).count
        let large = try matrix.pngData(scale: 20).count
        #expect(large < small * 10, "scale 20 is 400x the pixels, but repeated rows are Up-filtered to zeros")
    }

    /// The matrix with its quiet zone as `decode.py --modules` prints it.
    static func expectedRows(_ matrix: BarcodeMatrix) -> [String] {
        let quiet = matrix.quietZone
        return (0..<matrix.fullHeight).map { row in
            String((0..<matrix.fullWidth).map { column in matrix[column - quiet, row - quiet] ? "#" : "." })
        }
    }
}
