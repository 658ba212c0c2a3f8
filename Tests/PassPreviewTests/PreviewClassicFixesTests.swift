import Foundation
import PassModel
import PassPreview
import Testing

/// What the classic previews now draw as Wallet does: the event ticket's notch, the coupon's perforated edge, no
/// fields past Wallet's limits, a coupon's secondary and auxiliary fields in one row, one label size per row, and
/// Wallet's choice of text when a language or a key is missing.
@Suite("Pass preview: classic layouts as Wallet draws them")
struct PreviewClassicFixesTests {
    /// The `<text>` element drawing exactly `text`.
    static func element(_ text: String, in svg: String) throws -> Substring {
        try #require(svg.split(separator: "\n").first { $0.hasSuffix(">\(text)</text>") }, "\(text)")
    }

    static func attribute(_ name: String, of element: Substring) throws -> String {
        let start = try #require(element.range(of: " \(name)=\""))
        return String(element[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test("An event ticket has a notch at the top centre; other styles do not")
    func eventTicketNotch() async throws {
        let ticket = try PreviewFixtures.renderer("event-ticket")
        #expect(ticket.svg().contains("data-cut=\"notch\""))
        #expect(ticket.svg(side: .back).contains("data-cut=\"none\""), "only the front is cut")
        let pixels = try await PixelReport.read(try ticket.png(scale: 2), points: [(320, 4), (320, 40), (200, 4)])
        #expect(pixels.pixels[0][3] == 0, "the notch is transparent: \(pixels.pixels[0])")
        #expect(pixels.pixels[1][3] == 255 && pixels.pixels[2][3] == 255)
        let generic = try await PixelReport.read(try PreviewFixtures.renderer("generic").png(scale: 2), points: [(320, 4)])
        #expect(generic.pixels[0][3] == 255)
    }

    @Test("A coupon's top edge is perforated")
    func couponPerforation() async throws {
        let coupon = try PreviewFixtures.renderer("coupon")
        #expect(coupon.svg().contains("data-cut=\"perforation\""))
        // Perforations of 3 points radius every 10 points, the first centred 20 points in.
        let pixels = try await PixelReport.read(try coupon.png(scale: 2), points: [(40, 2), (60, 2), (50, 2), (50, 14)])
        #expect(pixels.pixels[0][3] == 0 && pixels.pixels[1][3] == 0, "\(pixels.pixels)")
        #expect(pixels.pixels[2][3] == 255 && pixels.pixels[3][3] == 255, "\(pixels.pixels)")
    }

    static func fields(_ prefix: String, _ count: Int) -> [PassField] {
        (1...count).map { PassField(key: "\(prefix)\($0)", label: "\(prefix)L\($0)", value: .string("\(prefix)V\($0)")) }
    }

    @Test("Fields past Wallet's limits are not drawn, exactly where the validator says Wallet ignores them",
          arguments: [PassBarcodeFormat.pdf417, .qr])
    func fieldLimits(_ format: PassBarcodeFormat) throws {
        var pass = PreviewFixtures.pass(secondary: Self.fields("S", 6))
        pass.generic?.headerFields = Self.fields("H", 4)
        pass.generic?.primaryFields = Self.fields("P", 2)
        pass.generic?.auxiliaryFields = Self.fields("A", 6)
        pass.barcodes = [PassBarcode(format: format, message: "X", messageEncoding: "iso-8859-1")]
        let renderer = PassPreviewRenderer(pass: pass, files: [:], language: "en")
        let svg = renderer.svg()
        let auxiliaryShown = format == .qr ? 0 : 4  // a square barcode: 4 secondary and auxiliary fields together
        let drawn = ["H": 3, "P": 1, "S": 4, "A": auxiliaryShown]
        for (group, count) in drawn {
            let total = ["H": 4, "P": 2, "S": 6, "A": 6][group]!
            for index in 1...total {
                #expect(svg.contains(">\(group)V\(index)</text>") == (index <= count), "\(format) \(group)\(index)")
            }
        }
        let warned = Set(renderer.report.warnings.map(\.path))
        for path in ["generic.headerFields", "generic.primaryFields", "generic.secondaryFields", "generic.auxiliaryFields"] {
            #expect(warned.contains(path), "the validator warns at \(path)")
        }
    }

    @Test("A coupon's secondary and auxiliary fields share one row; a generic pass's do not")
    func couponOneRow() throws {
        let coupon = try PreviewFixtures.renderer("coupon").svg()
        let on = try Self.attribute("y", of: Self.element("ON", in: coupon))
        let expires = try Self.attribute("y", of: Self.element("EXPIRES", in: coupon))
        #expect(on == expires)
        var pass = PreviewFixtures.pass(secondary: Self.fields("S", 1))
        pass.generic?.auxiliaryFields = Self.fields("A", 1)
        let generic = PassPreviewRenderer(pass: pass, files: [:]).svg()
        #expect(try Self.attribute("y", of: Self.element("SL1", in: generic))
                != Self.attribute("y", of: Self.element("AL1", in: generic)))
    }

    @Test("Every label of a row is drawn at one size, the largest at which each fits")
    func oneLabelSizePerRow() throws {
        let long = PassField(key: "l", label: "A VERY LONG LABEL THAT CANNOT FIT ITS COLUMN", value: .string("1"))
        let short = PassField(key: "s", label: "SHORT", value: .string("2"))
        let svg = PassPreviewRenderer(pass: PreviewFixtures.pass(secondary: [short, long, short]), files: [:]).svg()
        let sizes = try ["SHORT", "A VERY LONG LABEL THAT CANNOT FIT ITS COLUMN"].map {
            try Self.attribute("font-size", of: Self.element($0, in: svg))
        }
        #expect(sizes[0] == sizes[1], "\(sizes)")
        #expect(Double(sizes[0])! < 10, "shrunk to fit the long label: \(sizes)")
    }

    @Test("A language the pass lacks shows the pass's English (as Wallet falls back); a key missing in the chosen language shows the key")
    func missingLocalization() throws {
        let german = try PreviewFixtures.renderer("event-ticket", language: "de")
        #expect(german.localization == "en")
        let svg = german.svg()
        #expect(svg.contains(">EVENT</text>") && !svg.contains(">EVENT_LABEL</text>"))
        #expect(svg.contains("5 Dez. 2026") || svg.contains("05.12.2026") || svg.contains("5. Dez. 2026"),
                "dates stay in the device's language")
        #expect(try PreviewFixtures.renderer("event-ticket", language: "fr-CA").localization == "fr")

        // fr.lproj without SEAT_LABEL: Wallet shows the key itself.
        let template = try PreviewFixtures.template("event-ticket")
        var files = template.files
        let french = String(decoding: try #require(files["fr.lproj/pass.strings"]), as: UTF8.self)
        files["fr.lproj/pass.strings"] = Data(french.split(separator: "\n").filter { !$0.hasPrefix("\"SEAT_LABEL\"") }
            .joined(separator: "\n").utf8)
        let partial = PassPreviewRenderer(pass: template.pass, files: files, language: "fr").svg()
        #expect(partial.contains(">SEAT_LABEL</text>"))
        #expect(partial.contains(">RANG</text>") || partial.contains(">Rang</text>"), "the other keys are French")

        // Without any localization the pass's own text is drawn.
        let bare = PassPreviewRenderer(pass: template.pass, files: files.filter { !$0.key.contains(".lproj/") },
                                       language: "fr")
        #expect(bare.localization == nil)
        #expect(bare.svg().contains(">EVENT_LABEL</text>"))
    }
}
