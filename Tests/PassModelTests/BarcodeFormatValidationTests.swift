import Foundation
import PassModel
import Testing

@Suite("PassValidator: iOS 27 barcode formats")
struct BarcodeFormatValidationTests {
    static func barcode(_ format: String, _ message: String) -> JSONValue {
        ["format": .string(format), "message": .string(message), "messageEncoding": "iso-8859-1"]
    }

    @Test func newFormatWithAnOlderFallbackIsClean() {
        let json = Fixtures.eventTicket.setting(["barcodes"], to: [
            Self.barcode("PKBarcodeFormatEAN13", "4006381333931"), Self.barcode("PKBarcodeFormatQR", "4006381333931"),
        ])
        #expect(Fixtures.validate(json).issues.isEmpty)
    }

    @Test func newFormatAloneWarnsAboutEarlierIOS() {
        for format in ["PKBarcodeFormatCode39", "PKBarcodeFormatCodabar", "PKBarcodeFormatEAN13", "PKBarcodeFormatI2of5"] {
            let message = switch format {
            case "PKBarcodeFormatCode39": "E-0001"
            case "PKBarcodeFormatCodabar": "A0001B"
            case "PKBarcodeFormatI2of5": "00012345678905"
            default: "4006381333931"
            }
            let second = Self.barcode("PKBarcodeFormatCode39", "E-0001")
            let json = Fixtures.eventTicket.setting(["barcodes"], to: [Self.barcode(format, message), second])
            let report = Fixtures.validate(json)
            #expect(report.exactly(
                .warning, "barcodes[0].format",
                "iOS 26 and earlier do not show \(format) and no barcode they show follows it, so those devices show "
                    + "no barcode; add a QR, PDF417, Aztec or Code 128 barcode after it"), "\(format)")
            #expect(report.isValid, "\(report.errors)")
        }
    }

    @Test func newFormatAfterAnOlderOneNeedsNoWarning() {
        let json = Fixtures.eventTicket.setting(["barcodes"], to: [
            Self.barcode("PKBarcodeFormatPDF417", "E-0001"), Self.barcode("PKBarcodeFormatCode39", "E-0001"),
        ])
        #expect(Fixtures.validate(json).issues.isEmpty)
    }

    @Test func legacyBarcodeKeyWithANewFormat() {
        let json = Fixtures.eventTicket.setting(["barcode"], to: Self.barcode("PKBarcodeFormatCode39", "E-0001"))
        #expect(Fixtures.validate(json).exactly(
            .warning, "barcode.format",
            "iOS 26 and earlier do not show PKBarcodeFormatCode39, and the barcode key is for iOS 8 and earlier; "
                + "put it in barcodes, followed by a QR, PDF417, Aztec or Code 128 barcode"))
    }

    @Test func messagesAreCheckedForTheirFormat() {
        let json = Fixtures.eventTicket.setting(["barcodes"], to: [
            Self.barcode("PKBarcodeFormatEAN13", "4006381333932"), Self.barcode("PKBarcodeFormatI2of5", "123"),
            Self.barcode("PKBarcodeFormatCode39", "e-1"), Self.barcode("PKBarcodeFormatCodabar", "12a"),
            Self.barcode("PKBarcodeFormatQR", "e-1"),
        ])
        let report = Fixtures.validate(json)
        #expect(report.exactly(.error, "barcodes[0].message", "the EAN-13 check digit of 400638133393 is 1, not 2"))
        #expect(report.exactly(
            .error, "barcodes[1].message",
            "Interleaved 2 of 5 encodes digits in pairs: it needs an even number of digits, found 3"))
        #expect(report.exactly(
            .error, "barcodes[2].message",
            "character \"e\" at position 1 cannot be carried by Code 39 (digits, capital letters, space and - . $ / + %)"))
        #expect(report.has(.error, "barcodes[3].message", "character \"a\" at position 3 cannot be carried by Codabar"))
        #expect(report.errors.count == 4, "\(report.errors)")
        #expect(PassBarcodeFormat.ean13CheckDigit([9, 7, 8, 0, 2, 0, 1, 3, 7, 9, 6, 2]) == 4)
        // Characters canonically equal to allowed ones but not them (the Kelvin sign is "K" to Swift's `==`).
        #expect(PassBarcodeFormat.code39.problem(withMessage: "OK\u{212A}")?.contains("position 3") == true)
        #expect(PassBarcodeFormat.codabar.problem(withMessage: "A1\u{212A}B")?.contains("position 3") == true)
        #expect(PassBarcodeFormat.code39.problem(withMessage: "OK-1") == nil)
    }

    @Test func messagesAreCheckedForTheirEncoding() {
        var utf8 = Self.barcode("PKBarcodeFormatQR", "CARD-€-0001")
        utf8 = utf8.setting(["messageEncoding"], to: "utf-8")
        var ascii = Self.barcode("PKBarcodeFormatAztec", "café")
        ascii = ascii.setting(["messageEncoding"], to: "us-ascii")
        let json = Fixtures.eventTicket.setting(["barcodes"], to: [
            Self.barcode("PKBarcodeFormatQR", "CARD-€-0001"), Self.barcode("PKBarcodeFormatPDF417", ""),
            Self.barcode("PKBarcodeFormatQR", "Zoe\u{0308}"), utf8, Self.barcode("PKBarcodeFormatCode128", "Ł-1"),
            utf8.setting(["format"], to: "PKBarcodeFormatCode128"), ascii,
        ])
        let report = Fixtures.validate(json)
        #expect(report.exactly(.error, "barcodes[0].message",
                               "character \"€\" at position 6 cannot be encoded in iso-8859-1 (messageEncoding)"))
        #expect(report.exactly(.error, "barcodes[1].message", "is empty: Wallet has nothing to draw"))
        // A combining mark that composes into one ISO-8859-1 character, and UTF-8, are fine.
        #expect(!report.errors.contains { $0.path == "barcodes[2].message" || $0.path == "barcodes[3].message" })
        #expect(report.has(.error, "barcodes[4].message", "character \"Ł\" at position 1"))
        #expect(report.exactly(.error, "barcodes[5].message",
                               "character \"€\" at position 6 cannot be carried by Code 128 in utf-8 (scanners read it as "
                                   + "ISO-8859-1: use messageEncoding iso-8859-1)"))
        #expect(report.exactly(.error, "barcodes[6].message",
                               "character \"é\" at position 4 cannot be encoded in us-ascii (messageEncoding)"))
        #expect(report.errors.count == 5, "\(report.errors)")
    }

    @Test("Code 128 in UTF-8 carries ASCII only (scanners read its bytes as ISO-8859-1); in ISO-8859-1, Latin-1 too")
    func code128InUTF8() {
        let utf8 = Self.barcode("PKBarcodeFormatCode128", "Café").setting(["messageEncoding"], to: "utf-8")
        let latin1 = Self.barcode("PKBarcodeFormatCode128", "Café").setting(["messageEncoding"], to: "iso-8859-1")
        let ascii = Self.barcode("PKBarcodeFormatCode128", "Cafe-1").setting(["messageEncoding"], to: "utf-8")
        let report = Fixtures.validate(Fixtures.eventTicket.setting(["barcodes"], to: [utf8, latin1, ascii]))
        #expect(report.has(.error, "barcodes[0].message", "character \"é\" at position 4 cannot be carried by Code 128 in utf-8"))
        #expect(report.errors.count == 1, "\(report.errors)")
    }
}
