import Barcodes
import Foundation
import PassModel
import Testing

/// Code 39, Codabar, EAN-13 and Interleaved 2 of 5 (iOS 27): drawn through zint and read back by zxing-cpp.
@Suite("iOS 27 one-dimensional barcodes")
struct LinearDecodeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var format: Barcode.Format
        var message: String
        /// What a scanner reads: Codabar adds its start and stop characters, EAN-13 its check digit.
        var decoded: String
        var testDescription: String { "\(format.shortName) \(message)" }
    }

    /// A message each format can carry, for tests that go over every format.
    static func sample(_ format: Barcode.Format) -> String {
        switch format {
        case .ean13: "400638133393"
        case .i2of5: "00420042"
        case .codabar: "A0042B"
        default: "SVG-\(format.shortName.uppercased())-0042"
        }
    }

    static let cases: [Case] = [
        Case(format: .code39, message: "TICKET-42", decoded: "TICKET-42"),
        Case(format: .code39, message: "AB 12 $/+%.-", decoded: "AB 12 $/+%.-"),
        Case(format: .code39, message: "MEMBER 0000123456 GOLD", decoded: "MEMBER 0000123456 GOLD"),
        Case(format: .codabar, message: "A40156B", decoded: "A40156B"),
        Case(format: .codabar, message: "31117013206375", decoded: "A31117013206375A"),
        Case(format: .codabar, message: "C12-34:56/78.90+D", decoded: "C12-34:56/78.90+D"),
        Case(format: .ean13, message: "400638133393", decoded: "4006381333931"),
        Case(format: .ean13, message: "9780201379624", decoded: "9780201379624"),
        Case(format: .i2of5, message: "12345678", decoded: "12345678"),
        Case(format: .i2of5, message: "00012345678905", decoded: "00012345678905"),
    ]

    @Test(arguments: cases)
    func pngDecodesToTheMessage(_ testCase: Case) async throws {
        let matrix = try BarcodeRenderer.render(Barcode(format: testCase.format, message: testCase.message))
        #expect(matrix.height > 1 && matrix.width > 20)
        let file = try temporaryFolder().appendingPathComponent("\(testCase.format.shortName).png")
        try matrix.pngData().write(to: file)
        let report = try await IndependentDecoder.decode(file)
        #expect(report.status == 0, "zxing-cpp found nothing: \(report.stderr)")
        #expect(report.barcodes.count == 1)
        #expect(report.barcodes.first?.format == IndependentDecoder.zxingName(testCase.format))
        #expect(report.barcodes.first?.hex == IndependentDecoder.hex(Array(testCase.decoded.utf8)))
    }

    @Test(arguments: [Barcode.Format.code39, .codabar, .ean13, .i2of5])
    func formatsAreKnownByEveryName(_ format: Barcode.Format) throws {
        #expect(Barcode.Format(name: format.rawValue) == format)
        #expect(Barcode.Format(name: format.shortName) == format)
        #expect(format.needsIOS27 && format.isLinear)
        let pass = PassBarcode(format: PassBarcodeFormat(rawValue: format.rawValue), message: Self.sample(format))
        #expect(try Barcode(pass).format == format)
        #expect(Barcode.Format(name: "itf") == .i2of5)
    }

    @Test func messagesTheFormatCannotCarryAreErrors() throws {
        func error(_ format: Barcode.Format, _ message: String) throws -> BarcodeError {
            try #require(throws: BarcodeError.self) { try BarcodeRenderer.render(Barcode(format: format, message: message)) }
        }
        let checkDigit = try error(.ean13, "4006381333932")
        #expect(checkDigit.code == .invalidMessage)
        #expect(checkDigit.reason == "message: the EAN-13 check digit of 400638133393 is 1, not 2")
        let length = try error(.ean13, "40063813")
        #expect(length.reason == "message: EAN-13 carries 12 digits, or 13 with the check digit; found 8")
        let odd = try error(.i2of5, "1234567")
        #expect(odd.code == .invalidMessage)
        #expect(odd.reason
            == "message: Interleaved 2 of 5 encodes digits in pairs: it needs an even number of digits, found 7")
        let lowercase = try error(.code39, "Ticket")
        #expect(lowercase.code == .unencodableCharacter)
        #expect(lowercase.reason == "message: character \"i\" at position 2 cannot be carried by Code 39 "
            + "(digits, capital letters, space and - . $ / + %)")
        let letter = try error(.codabar, "A12X4B")
        #expect(letter.reason.hasPrefix("message: character \"X\" at position 4 cannot be carried by Codabar"))
        #expect(try error(.i2of5, "").code == .emptyMessage)
    }
}
