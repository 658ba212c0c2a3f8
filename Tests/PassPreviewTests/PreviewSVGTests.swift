import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PassModel
import PassPreview
import Testing

/// The SVG preview: every front field's label and value, localized; back fields; banner; well-formed, escaped XML.
@Suite("Pass preview SVG")
struct PreviewSVGTests {
    @Test(arguments: PreviewFixtures.templates, ["en", "fr"])
    func frontShowsEveryFieldLocalized(_ name: String, _ language: String) throws {
        let strings = try PreviewFixtures.strings(name, language)
        let renderer = try PreviewFixtures.renderer(name, language: language)
        let svg = renderer.svg(side: .front)
        let fields = try #require(renderer.pass.fieldsOfStyle)
        let front = [fields.headerFields, fields.primaryFields, fields.secondaryFields, fields.auxiliaryFields]
            .compactMap { $0 }.flatMap { $0 }
        #expect(!front.isEmpty)
        for field in front {
            let label = try #require(field.label)
            #expect(svg.contains(">\(escape(strings[label] ?? label))</text>"), "\(name) \(language): label \(label)")
            // Dates and numbers are checked against known answers below; strings must appear localized.
            if case .string(let value)? = field.value, field.dateStyle == nil, field.timeStyle == nil {
                #expect(svg.contains(">\(escape(strings[value] ?? value))</text>"), "\(name) \(language): value \(value)")
            }
        }
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "\(name): SVG is not well-formed XML")
        #expect(!svg.contains("Invalid pass"), "\(name): the template should validate")
    }

    @Test func datesFollowStylesLanguageAndTimeZone() throws {
        let english = try PreviewFixtures.renderer("event-ticket", language: "en").svg()
        #expect(english.contains("Dec 5, 2026"))
        #expect(english.contains("7:30"))
        let french = try PreviewFixtures.renderer("event-ticket", language: "fr").svg()
        #expect(french.contains("5 déc. 2026"))
        #expect(french.contains("19:30"))
        // memberSince is 2024-03-01T00:00Z with ignoresTimeZone: still 1 March on a device in California.
        let store = try PreviewFixtures.renderer("store-card", language: "en").svg()
        #expect(store.contains(">Mar 1, 2024</text>"))
        #expect(!store.contains("Feb 29"))
    }

    @Test func currencyFollowsTheLanguage() throws {
        #expect(try PreviewFixtures.renderer("store-card", language: "en").svg().contains(">$25.50</text>"))
        // ICU separates the amount and the symbol with a no-break space.
        let french = try PreviewFixtures.renderer("store-card", language: "fr").svg()
            .replacingOccurrences(of: "\u{A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ")
        #expect(french.contains(">25,50 $US</text>"))
    }

    @Test func numberStylesAndRelativeDates() throws {
        var percent = PassField(key: "a", label: "A", value: .number(0.25))
        percent.numberStyle = .percent
        var spelled = PassField(key: "b", label: "B", value: .integer(42))
        spelled.numberStyle = .spellOut
        var decimal = PassField(key: "c", label: "C", value: .number(1234.5))
        decimal.numberStyle = .decimal
        var relative = PassField(key: "d", label: "D", value: .string("2026-05-30T10:00-07:00"))
        relative.dateStyle = .medium
        relative.isRelative = true
        let pass = PreviewFixtures.pass(secondary: [percent, spelled, decimal, relative])
        let configuration = PassPreviewRenderer.Configuration(timeZone: PreviewFixtures.pacific.timeZone,
                                                              now: try #require(W3CDate.date(from: "2026-05-29T09:00-07:00")))
        let english = PassPreviewRenderer(pass: pass, files: [:], language: "en", configuration: configuration).svg()
        for text in ["25%", "forty-two", "1,234.5", "tomorrow"] { #expect(english.contains(">\(text)</text>"), "\(text)") }
        let french = PassPreviewRenderer(pass: pass, files: [:], language: "fr", configuration: configuration).svg()
        for text in ["quarante-deux", "demain"] { #expect(french.contains(">\(text)</text>"), "\(text)") }
    }

    @Test func backListsBackFieldsOnly() throws {
        let renderer = try PreviewFixtures.renderer("event-ticket", language: "en")
        let back = renderer.svg(side: .back)
        for text in ["Doors open", "Address", "1 Arena Way, Oakland, CA 94607", "Terms"] {
            #expect(back.contains(">\(text)</text>"), "\(text)")
        }
        #expect(!back.contains("TICKET-0001"))
        #expect(!renderer.svg(side: .front).contains(">Doors open</text>"))
        let both = renderer.svg(side: .both)
        #expect(both.contains("data-side=\"front\"") && both.contains("data-side=\"back\""))
    }

    @Test func invalidPassIsDrawnUnderABannerListingItsErrors() throws {
        var pass = try PreviewFixtures.template("generic").pass
        pass.serialNumber = nil
        pass.backgroundColor = "blue"
        let renderer = PassPreviewRenderer(pass: pass, files: try PreviewFixtures.template("generic").files)
        #expect(!renderer.report.isValid)
        let svg = renderer.svg()
        #expect(svg.contains("data-role=\"validation-errors\""))
        #expect(svg.contains("Invalid pass: \(renderer.report.errors.count) validation error"))
        for error in renderer.report.errors { #expect(svg.contains(escape(error.path)), "\(error.path)") }
        #expect(svg.contains(">Jane Doe</text>"), "the pass is still drawn")
    }

    @Test func passTextIsEscaped() throws {
        let field = PassField(key: "x", label: "Q&A <b>", value: .string("\"Fish\" & 'Chips' </text>"))
        let svg = PassPreviewRenderer(pass: PreviewFixtures.pass(secondary: [field]), files: [:]).svg()
        #expect(svg.contains(">Q&amp;A &lt;b&gt;</text>"))
        #expect(svg.contains("&quot;Fish&quot; &amp; &apos;Chips&apos; &lt;/text&gt;"))
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }

    @Test func bundleWithoutPassJSONIsAnError() throws {
        #expect(throws: PassPreviewError.self) { try PassPreviewRenderer(bundleFiles: ["logo.png": Data()]) }
        do {
            _ = try PassPreviewRenderer(bundleFiles: ["pass.json": Data("{\"formatVersion\": \"one\"}".utf8)])
            Issue.record("a pass.json of the wrong shape should not be drawn")
        } catch let error as PassPreviewError {
            #expect(error.code == .invalidPass)
            #expect(error.description.contains("formatVersion"))
        }
    }

    func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}

/// Text wider than its place: librsvg, which draws the PNG, ignores `textLength`, so the text itself must fit.
@Suite("Pass preview: text that does not fit")
struct PreviewLongTextTests {
    @Test("a long logoText is drawn smaller, then cut with an ellipsis, not squeezed past the card's edge")
    func longLogoText() throws {
        let long = String(repeating: "Very Long Brand Name ", count: 6)
        let renderer = try PassPreviewRenderer(
            template: PreviewFixtures.template("coupon"), data: PassData(overrides: ["logoText": .string(long)]),
            language: nil)
        let svg = renderer.svg(side: .front)
        let line = try #require(svg.split(separator: "\n").first { $0.contains("Very Long Brand") })
        #expect(line.contains("\u{2026}</text>"), "\(line)")
        #expect(!line.contains(long.trimmingCharacters(in: .whitespaces)))
        #expect(!line.contains("textLength"), "\(line)")
    }
}
