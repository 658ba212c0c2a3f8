import Barcodes
import PassModel
import Testing

/// Messages and options that cannot make a barcode fail with an error naming the field and the character.
@Suite("Barcode errors")
struct BarcodeErrorTests {
    @Test func unencodableCharacterIsNamedWithItsPosition() throws {
        let barcode = Barcode(format: .qr, message: "Zoë Müller – Café", messageEncoding: "iso-8859-1")
        let error = try #require(throws: BarcodeError.self) { try BarcodeRenderer.render(barcode) }
        #expect(error.code == .unencodableCharacter)
        #expect(error.reason == "message: character \"–\" at position 12 cannot be encoded in iso-8859-1")
        let ascii = Barcode(format: .aztec, message: "Café", messageEncoding: "us-ascii")
        #expect(throws: BarcodeError.self) { try BarcodeRenderer.render(ascii) }
    }

    @Test(arguments: ["utf-8", "iso-8859-1"])
    func code128RefusesCharactersBeyondLatin1(_ encoding: String) throws {
        let barcode = Barcode(format: .code128, message: "Price 5€", messageEncoding: encoding)
        let error = try #require(throws: BarcodeError.self) { try BarcodeRenderer.render(barcode) }
        #expect(error.code == .unencodableCharacter)
        #expect(error.reason.hasPrefix("message: character \"€\" at position 8"))
        #expect(error.reason.contains("Code 128"))
    }

    @Test("Code 128 in UTF-8 refuses what is beyond ASCII (read back as ISO-8859-1, \"é\" would scan as \"Ã©\")")
    func code128InUTF8RefusesNonASCII() throws {
        let barcode = Barcode(format: .code128, message: "Café", messageEncoding: "utf-8")
        let error = try #require(throws: BarcodeError.self) { try BarcodeRenderer.render(barcode) }
        #expect(error.reason.hasPrefix("message: character \"é\" at position 4 cannot be carried by Code 128 in utf-8"),
                "\(error.reason)")
        #expect(throws: Never.self) { try BarcodeRenderer.render(Barcode(format: .code128, message: "Café", messageEncoding: "iso-8859-1")) }
    }

    @Test(arguments: Barcode.Format.allCases)
    func emptyMessageIsAnError(_ format: Barcode.Format) throws {
        let error = try #require(throws: BarcodeError.self) { try BarcodeRenderer.render(Barcode(format: format, message: "")) }
        #expect(error.code == .emptyMessage)
        #expect(error.reason == "message: is empty")
    }

    @Test func controlCharactersAreNamedByCodePoint() throws {
        let error = try #require(throws: BarcodeError.self) {
            try Barcode(format: .qr, message: "A\u{85}\u{2028}", messageEncoding: "us-ascii").encodedMessage()
        }
        #expect(error.reason.hasPrefix("message: character U+85 at position 2"))
    }

    @Test func unknownEncodingAndOversizedMessagesAndOptions() throws {
        let encoding = try #require(throws: BarcodeError.self) {
            try BarcodeRenderer.render(Barcode(format: .qr, message: "X", messageEncoding: "shift_jis"))
        }
        #expect(encoding.code == .unknownEncoding)
        #expect(encoding.reason.hasPrefix("messageEncoding: \"shift_jis\""))

        let huge = String(repeating: "x", count: 5000)
        for format in [Barcode.Format.qr, .pdf417, .aztec, .code128] {
            let error = try #require(throws: BarcodeError.self) { try BarcodeRenderer.render(Barcode(format: format, message: huge)) }
            #expect(error.code == .messageTooLong, "\(format): \(error)")
            #expect(error.reason.hasPrefix("message: 5000 bytes do not fit"))
        }

        let matrix = try BarcodeRenderer.render(Barcode(format: .qr, message: "X"))
        #expect(throws: BarcodeError.self) { try matrix.pngData(scale: 0) }
        #expect(throws: BarcodeError.self) { try matrix.svg(scale: 101) }
        #expect(throws: BarcodeError.self) {
            try BarcodeRenderer.render(Barcode(format: .pdf417, message: "X"), configuration: .init(pdf417Columns: 31))
        }
        #expect(throws: BarcodeError.self) {
            try BarcodeRenderer.render(Barcode(format: .pdf417, message: "X"), configuration: .init(pdf417SecurityLevel: 9))
        }
    }

    @Test func passBarcodeDictionariesAreRead() throws {
        let barcode = try Barcode(PassBarcode(format: .pdf417, message: "ABC", messageEncoding: nil, altText: "ABC"))
        #expect(barcode == Barcode(format: .pdf417, message: "ABC", messageEncoding: "iso-8859-1", altText: "ABC"))
        let unknown = try #require(throws: BarcodeError.self) {
            try Barcode(PassBarcode(format: PassBarcodeFormat(rawValue: "PKBarcodeFormatDataMatrix"), message: "A"))
        }
        #expect(unknown.code == .unknownFormat)
        #expect(unknown.reason.hasPrefix("format: \"PKBarcodeFormatDataMatrix\""))
        #expect(throws: BarcodeError.self) { try Barcode(PassBarcode(format: .qr, message: nil)) }
        #expect(Barcode.Format(name: "PDF417") == .pdf417)
        #expect(Barcode.Format(name: "PKBarcodeFormatCode128") == .code128)
        #expect(Barcode.Format(name: "upca") == nil)
    }
}
