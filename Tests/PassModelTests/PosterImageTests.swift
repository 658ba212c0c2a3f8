import Foundation
import PassModel
import Testing

/// The iOS 18 and 27 poster images (`artwork`, `primaryLogo`, `secondaryLogo`, `footer`) and PDF images.
@Suite("PassValidator: poster and PDF images")
struct PosterImageTests {
    /// A small PDF with one page of `width`×`height` points.
    static func pdf(width: Double, height: Double) -> Data {
        Data("""
            %PDF-1.4
            1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
            2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
            3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] >> endobj
            trailer << /Root 1 0 R >>
            %%EOF

            """.utf8)
    }

    static func validate(_ files: [String: Data], json: JSONValue = Fixtures.eventTicket) -> ValidationReport {
        Fixtures.validate(json, files: Fixtures.iconFiles.merging(files) { $1 })
    }

    @Test func posterImagesOfTheirDocumentedSizesAreClean() {
        let report = Self.validate([
            "artwork.png": Fixtures.png(width: 358, height: 448), "artwork@2x.png": Fixtures.png(width: 716, height: 896),
            "artwork@3x.png": Fixtures.png(width: 1074, height: 1344),
            "primaryLogo@2x.png": Fixtures.png(width: 252, height: 60),
            "secondaryLogo@3x.png": Fixtures.png(width: 405, height: 36),
        ])
        #expect(report.issues.isEmpty, "\(report.issues)")
        let boarding = Self.boardingPass
        #expect(Fixtures.validate(boarding, files: Fixtures.iconFiles.merging(
            ["footer@2x.png": Fixtures.png(width: 572, height: 30)]) { $1 }).issues.isEmpty)
    }

    static var boardingPass: JSONValue {
        var json = Fixtures.eventTicket
        json["boardingPass"] = json["eventTicket"]?.setting(["transitType"], to: "PKTransitTypeAir")
        json["eventTicket"] = nil
        return json
    }

    @Test func sizesBeyondTheDocumentedOnesNameTheFile() {
        let report = Self.validate([
            "artwork@3x.png": Fixtures.png(width: 1000, height: 1344),
            "secondaryLogo.png": Fixtures.png(width: 140, height: 12),
            "primaryLogo@3x.png": Fixtures.png(width: 378, height: 100),
        ])
        #expect(report.exactly(
            .warning, "artwork@3x.png", "is 1000×1344 pixels; expected 1074×1344 (358×448 points at @3x)"))
        #expect(report.exactly(
            .warning, "secondaryLogo.png", "is 140×12 pixels; at most 135×12 (135×12 points) is shown"))
        #expect(report.exactly(
            .warning, "primaryLogo@3x.png", "is 378×100 pixels; at most 378×90 (126×30 points at @3x) is shown"))
        let footer = Fixtures.validate(Self.boardingPass, files: Fixtures.iconFiles.merging(
            ["footer.png": Fixtures.png(width: 300, height: 15)]) { $1 })
        #expect(footer.exactly(.warning, "footer.png", "is 300×15 pixels; at most 286×15 (286×15 points) is shown"))
    }

    @Test func pdfImagesAreAcceptedAndTheirPageSizeChecked() {
        let report = Self.validate([
            "artwork.pdf": Self.pdf(width: 358, height: 448),
            "primaryLogo.pdf": Self.pdf(width: 126, height: 30.2),
            "secondaryLogo.pdf": Self.pdf(width: 200, height: 12),
            "thumbnail@2x.pdf": Self.pdf(width: 180, height: 180),
        ])
        #expect(report.issues(at: "artwork.pdf").isEmpty)
        #expect(report.issues(at: "primaryLogo.pdf").isEmpty)
        #expect(report.issues(at: "thumbnail@2x.pdf").isEmpty)
        #expect(report.exactly(
            .warning, "secondaryLogo.pdf", "is 200×12 points (PDF page); at most 135×12 (135×12 points) is shown"))
        #expect(report.issues.count == 1, "\(report.issues)")

        let wrongArtwork = Self.validate(["artwork.pdf": Self.pdf(width: 400.5, height: 448)])
        #expect(wrongArtwork.exactly(
            .warning, "artwork.pdf", "is 400.5×448 points (PDF page); expected 358×448 (358×448 points)"))
    }

    @Test func aPDFIconIsTheRequiredIcon() {
        let report = Fixtures.validate(Fixtures.eventTicket, files: ["icon.pdf": Self.pdf(width: 29, height: 29)])
        #expect(report.issues.isEmpty, "\(report.issues)")
    }

    @Test func brokenAndMisusedPDFsAreReported() {
        let report = Self.validate([
            "logo.pdf": Data("not a pdf".utf8),
            "strip.pdf": Data("%PDF-1.4\n1 0 obj << /MediaBox [0 0 375 98] >>".utf8),
            "personalizationLogo.pdf": Self.pdf(width: 150, height: 40),
        ])
        #expect(report.exactly(.error, "logo.pdf", "not a valid PDF image: not a PDF file (the %PDF- header is missing)"))
        #expect(report.exactly(
            .error, "strip.pdf", "not a valid PDF image: PDF file is truncated (no %%EOF marker at its end)"))
        #expect(report.exactly(
            .warning, "personalizationLogo.pdf",
            "personalizationLogo must be a PNG image (personalizationLogo.png); Wallet ignores a PDF one"))
    }

    @Test func aPDFWhosePageSizeIsCompressedIsNotMeasured() throws {
        let data = Data("%PDF-1.5\n1 0 obj << /Type /ObjStm /Filter /FlateDecode >> stream\nxx\nendstream\n%%EOF\n".utf8)
        let info = try PDFInfo(data: data)
        #expect(info.width == nil && info.height == nil)
        #expect(Self.validate(["artwork.pdf": data]).issues.isEmpty)
        #expect(try PDFInfo(data: Self.pdf(width: 358, height: 448)) == PDFInfo(width: 358, height: 448))
    }

    @Test func aPosterTicketMayUseAPDFArtwork() {
        let files = Fixtures.iconFiles.merging(["artwork.pdf": Self.pdf(width: 358, height: 448)]) { $1 }
        let report = Fixtures.validate(StyleSchemeValidationTests.posterTicket, files: files)
        #expect(report.isValid, "\(report.errors)")
        #expect(report.issues.allSatisfy { $0.path == "nfc" }, "\(report.issues)")
    }
}
