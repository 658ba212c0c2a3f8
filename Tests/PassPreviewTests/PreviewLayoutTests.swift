import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PassModel
import PassPreview
import Testing

/// The iOS 18-27 layouts: poster event ticket, semantic boarding pass and poster generic pass, drawn when the pass
/// asks for them and qualifies, as SVG text and as pixels.
@Suite("Pass preview: poster and semantic layouts")
struct PreviewLayoutTests {
    /// SVG text with ICU's narrow and ordinary no-break spaces made plain spaces.
    static func plain(_ svg: String) -> String {
        svg.replacingOccurrences(of: "\u{202F}", with: " ").replacingOccurrences(of: "\u{A0}", with: " ")
    }

    static func close(_ pixel: [Int]?, _ colour: [Int], within tolerance: Int = 6) -> Bool {
        guard let pixel else { return false }
        return zip(pixel.prefix(3), colour).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test("Poster event ticket: artwork, event logo text, event from semantics, footer with the seat")
    func posterEventTicketSVG() throws {
        let renderer = try PreviewFixtures.renderer("poster-event-ticket")
        #expect(renderer.layout == .posterEventTicket)
        let svg = Self.plain(renderer.svg())
        for text in ["Tessera Arena", "The Midnight Echo", "Dec 5, 2026 at 7:30 PM", "Tessera Arena · Main Hall",
                     "Section", "Row", "Seat", "B", "12", "F", "TICKET-0001"] {
            #expect(svg.contains(">\(text)</text>"), "\(text)")
        }
        #expect(svg.contains("data-layout=\"posterEventTicket\""))
        #expect(svg.contains("data-role=\"artwork\""))
        #expect(svg.contains("data-role=\"header-darkening\""))
        #expect(svg.contains("fill=\"rgb(40,12,70)\" data-role=\"footer\""))
        #expect(svg.contains("data-cut=\"none\""), "no notch on a poster")
        // The classic fields are not the poster's front.
        #expect(!svg.contains(">EVENT</text>"))
        #expect(XMLParser(data: Data(svg.utf8)).parse())

        let french = Self.plain(try PreviewFixtures.renderer("poster-event-ticket", language: "fr").svg())
        for text in ["5 déc. 2026 à 19:30", "Rang", "Siège"] { #expect(french.contains(">\(text)</text>"), "\(text)") }

        var pass = try PreviewFixtures.template("poster-event-ticket").pass
        pass.suppressHeaderDarkening = true
        let bright = PassPreviewRenderer(pass: pass, files: try PreviewFixtures.template("poster-event-ticket").files)
        #expect(!bright.svg().contains("header-darkening"))
    }

    @Test("A poster event ticket Wallet would not draw as a poster (no NFC) is drawn classic, with its notch")
    func posterFallsBackToClassic() throws {
        let template = try PreviewFixtures.template("poster-event-ticket")
        var pass = template.pass
        pass.nfc = nil
        let renderer = PassPreviewRenderer(pass: pass, files: template.files, language: "en",
                                           configuration: PreviewFixtures.pacific)
        #expect(renderer.layout == .classic)
        let svg = renderer.svg()
        #expect(!svg.contains("data-layout="))
        #expect(svg.contains(">EVENT</text>"))
        #expect(svg.contains("data-cut=\"notch\""))
    }

    @Test("Poster event ticket pixels: the artwork at the top, the footer in footerBackgroundColor")
    func posterEventTicketPNG() async throws {
        let renderer = try PreviewFixtures.renderer("poster-event-ticket")
        let report = try await PixelReport.read(try renderer.png(scale: 1), points: [(160, 200), (4, 404), (160, 4)])
        // artwork@2x.png's centre is (255, 184, 170); the card's artwork spans 320 × 400 points.
        #expect(Self.close(report.pixels[0], [255, 184, 170]), "\(report.pixels[0])")
        #expect(Self.close(report.pixels[1], [40, 12, 70], within: 2), "\(report.pixels[1])")
        #expect(report.pixels[2][3] == 255, "no notch on a poster")
    }

    @Test("Semantic boarding pass: the flight from semantics, times in each airport's time zone")
    func semanticBoardingPassSVG() throws {
        // A device in Tokyo still sees the local times of San Francisco and New York.
        let tokyo = PassPreviewRenderer.Configuration(timeZone: TimeZone(identifier: "Asia/Tokyo")!,
                                                      now: PreviewFixtures.pacific.now)
        let template = try PreviewFixtures.template("semantic-boarding-pass")
        let renderer = PassPreviewRenderer(pass: template.pass, files: template.files, language: "en", configuration: tokyo)
        #expect(renderer.layout == .semanticBoardingPass)
        let svg = Self.plain(renderer.svg())
        for text in ["TA1234", "Dec 5, 2026", "SFO", "JFK", "San Francisco", "New York", "Departs", "8:00 AM", "Arrives",
                     "4:35 PM", "Gate", "B12", "Terminal", "2", "Boards", "7:15 AM", "Group", "3", "Seat", "12A",
                     "Passenger", "Jane Doe", "ETKT123"] {
            #expect(svg.contains(">\(text)</text>"), "\(text)")
        }
        #expect(svg.contains("data-layout=\"semanticBoardingPass\""))
        let french = Self.plain(PassPreviewRenderer(pass: template.pass, files: template.files, language: "fr",
                                                    configuration: tokyo).svg())
        for text in ["Départ", "08:00", "Arrivée", "16:35", "Porte", "Passager"] {
            #expect(french.contains(">\(text)</text>"), "\(text)")
        }

        var pass = template.pass
        pass.semantics = pass.semantics.flatMap { semantics in
            guard case .object(var members) = semantics else { return semantics }
            members["airlineCode"] = nil
            return .object(members)
        }
        let classic = PassPreviewRenderer(pass: pass, files: template.files, language: "en", configuration: tokyo)
        #expect(classic.layout == .classic)
        #expect(!classic.svg().contains("data-layout="))
    }

    @Test("Semantic boarding pass pixels: light airport codes on the dark pass colour")
    func semanticBoardingPassPNG() async throws {
        let renderer = try PreviewFixtures.renderer("semantic-boarding-pass")
        let scale = 2.0
        let report = try await PixelReport.read(try renderer.png(scale: scale), points: [(8, 500)],
                                          regions: [(24, 124, 180, 76), (436, 124, 180, 76), (260, 124, 120, 40)])
        #expect(Self.close(report.pixels[0], [18, 52, 99], within: 2), "\(report.pixels[0])")
        #expect(report.regions[0].light > 400 && report.regions[0].dark > 400, "SFO: \(report.regions[0])")
        #expect(report.regions[1].light > 400, "JFK: \(report.regions[1])")
    }

    @Test("Poster generic: artwork, the posterGeneric header, primary and footer fields")
    func posterGenericSVGAndPNG() async throws {
        let renderer = try PreviewFixtures.renderer("poster-generic")
        #expect(renderer.layout == .posterGeneric)
        let svg = renderer.svg()
        for text in ["MEMBER ID", "0001", "Jane Doe", "MEMBERSHIP", "All clubs", "Tessera Fitness", "MEMBER-0001"] {
            #expect(svg.contains(">\(text)</text>"), "\(text)")
        }
        #expect(svg.contains("data-layout=\"posterGeneric\"") && svg.contains("data-role=\"artwork\""))
        #expect(svg.contains("data-role=\"primary-logo\""))
        let french = try PreviewFixtures.renderer("poster-generic", language: "fr").svg()
        #expect(french.contains(">Tous les clubs</text>"))
        // The back lists posterGeneric's back fields, not generic's.
        let template = try PreviewFixtures.template("poster-generic")
        var differentBack = template.pass
        differentBack.posterGeneric?.backFields = [PassField(key: "poster", label: "Poster back", value: .string("P"))]
        let back = PassPreviewRenderer(pass: differentBack, files: template.files, language: "en").svg(side: .back)
        #expect(back.contains(">Poster back</text>") && !back.contains("Opening hours"))

        let report = try await PixelReport.read(try renderer.png(scale: 1), points: [(160, 200), (4, 404)])
        #expect(Self.close(report.pixels[0], [180, 195, 190]), "\(report.pixels[0])")
        #expect(Self.close(report.pixels[1], [230, 236, 240], within: 2), "\(report.pixels[1])")

        // Without posterGeneric the same pass is the classic generic pass.
        var pass = template.pass
        pass.posterGeneric = nil
        let classic = PassPreviewRenderer(pass: pass, files: template.files, language: "en")
        #expect(classic.layout == .classic)
        #expect(!classic.svg().contains("data-layout="))
    }
}
