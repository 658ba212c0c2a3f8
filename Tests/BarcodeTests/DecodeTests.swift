import Barcodes
import Foundation
import Testing

/// Every format and kind of message, drawn as PNG by Tessera and read back by zxing-cpp: the decoded bytes must be
/// exactly the message in its `messageEncoding`.
@Suite("Barcodes decode to their exact message")
struct DecodeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var format: Barcode.Format
        var name: String
        var message: String
        var encoding: String
        var testDescription: String { "\(format.shortName) \(name) (\(encoding))" }
    }

    static let longText = (1...40).map { "seat \($0)F row \($0 % 7) gate B\($0 % 9); " }.joined()

    /// The formats that carry any byte (Code 128: any ISO-8859-1 character); the iOS 27 formats carry a few
    /// ASCII characters each and have cases of their own in `LinearDecodeTests`.
    static let cases: [Case] = Barcode.Format.allCases.filter { !$0.needsIOS27 }.flatMap { format -> [Case] in
        let long = switch format {
        case .qr: String(longText.prefix(900))
        case .pdf417: String(longText.prefix(600))
        case .aztec: String(longText.prefix(900))
        case .code128: String(longText.prefix(45))  // zint caps Code 128 at 60 symbol characters
        case .code39, .codabar, .ean13, .i2of5: ""
        }
        return [
            Case(format: format, name: "short", message: "TICKET-1", encoding: "iso-8859-1"),
            Case(format: format, name: "long", message: long, encoding: "iso-8859-1"),
            // Code 128 is read as ISO-8859-1, so in UTF-8 it carries ASCII only.
            Case(format: format, name: format == .code128 ? "ASCII" : "non-ASCII",
                 message: format == .code128 ? "Zoe Muller, Cafe" : "Zoë Müller – Café", encoding: "utf-8"),
            Case(format: format, name: "non-ASCII", message: "Zoë Müller, Café ½ ß", encoding: "iso-8859-1"),
            Case(format: format, name: "binary-looking", message: "\u{1}\u{2}\u{7F}ÿ", encoding: "iso-8859-1"),
            Case(format: format, name: "binary with NUL and C1", message: "\u{0}A\u{80}\u{9F}\u{FF}0", encoding: "iso-8859-1"),
        ]
    }

    @Test(arguments: cases)
    func pngDecodesToTheEncodedBytes(_ testCase: Case) async throws {
        let barcode = Barcode(format: testCase.format, message: testCase.message, messageEncoding: testCase.encoding)
        let expected = try barcode.encodedMessage()
        let matrix = try BarcodeRenderer.render(barcode)
        let file = try temporaryFolder().appendingPathComponent("\(testCase.format.shortName).png")
        try matrix.pngData().write(to: file)

        let report = try await IndependentDecoder.decode(file)
        #expect(report.status == 0, "zxing-cpp found nothing: \(report.stderr)")
        #expect(report.barcodes.count == 1)
        #expect(report.barcodes.first?.format == IndependentDecoder.zxingName(testCase.format))
        #expect(report.barcodes.first?.hex == IndependentDecoder.hex(expected))
    }

    @Test func utf8AndLatin1CarryDifferentBytesForTheSameText() throws {
        let text = "Zoë"
        let latin1 = try Barcode(format: .qr, message: text, messageEncoding: "iso-8859-1").encodedMessage()
        let utf8 = try Barcode(format: .qr, message: text, messageEncoding: "utf-8").encodedMessage()
        #expect(latin1 == [0x5A, 0x6F, 0xEB])
        #expect(utf8 == [0x5A, 0x6F, 0xC3, 0xAB])
        // A decomposed "e" + U+0308 still fits ISO-8859-1 once composed.
        #expect(try Barcode(format: .qr, message: "Zoe\u{308}", messageEncoding: "ISO-8859-1").encodedMessage() == latin1)
    }

    @Test(arguments: BarcodeRenderer.QRErrorCorrection.allCases)
    func qrDecodesAtEveryErrorCorrectionLevel(_ level: BarcodeRenderer.QRErrorCorrection) async throws {
        let barcode = Barcode(format: .qr, message: Self.longText, messageEncoding: "utf-8")
        let matrix = try BarcodeRenderer.render(barcode, configuration: .init(qrErrorCorrection: level))
        let file = try temporaryFolder().appendingPathComponent("qr-\(level.rawValue).png")
        try matrix.pngData(scale: 4).write(to: file)
        let report = try await IndependentDecoder.decode(file)
        #expect(report.barcodes.first?.hex == IndependentDecoder.hex(Array(Self.longText.utf8)))
        // Higher levels need more modules for the same message.
        if level != .low {
            let lower = try BarcodeRenderer.render(barcode, configuration: .init(qrErrorCorrection: .low))
            #expect(matrix.width > lower.width)
        }
    }

    @Test("a PDF417 message of 1,050 bytes (past level 5's room) is drawn at a lower level and decodes")
    func pdf417PastLevelFive() async throws {
        // Latin-1 letters beyond ASCII: byte compaction, 6 bytes to 5 codewords (876 data codewords).
        let message = String((0..<1_050).map { Character(Unicode.Scalar(UInt8(0xC0 + $0 % 63))) })
        let matrix = try BarcodeRenderer.render(Barcode(format: .pdf417, message: message, messageEncoding: "iso-8859-1"))
        let file = try temporaryFolder().appendingPathComponent("pdf417-long.png")
        try matrix.pngData().write(to: file)
        let report = try await IndependentDecoder.decode(file)
        #expect(report.barcodes.first?.hex == IndependentDecoder.hex(Array(try #require(message.data(using: .isoLatin1)))))
    }

    @Test(arguments: [1, 4, 12, 30])
    func pdf417WithFixedColumnsDecodes(_ columns: Int) async throws {
        let barcode = Barcode(format: .pdf417, message: String(Self.longText.prefix(60)))
        let matrix = try BarcodeRenderer.render(barcode, configuration: .init(pdf417SecurityLevel: 2, pdf417Columns: columns))
        #expect(matrix.width == 17 * columns + 69)
        let file = try temporaryFolder().appendingPathComponent("pdf417-\(columns).png")
        try matrix.pngData().write(to: file)
        let report = try await IndependentDecoder.decode(file)
        #expect(report.barcodes.first?.hex == IndependentDecoder.hex(Array(Self.longText.prefix(60).utf8)))
    }
}
