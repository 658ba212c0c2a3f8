import Foundation
import Testing
import TesseraTestSupport

/// `tessera pass preview` run as a subprocess: templates and .pkpass files, SVG and PNG, exit codes 0, 1 and 2.
@Suite("tessera pass preview")
struct PassPreviewCommandTests {
    let work: URL
    let templates = Subprocess.repositoryRoot.appendingPathComponent("PassTemplates")

    init() async throws { work = try PreviewFixtures.temporaryFolder() }

    @Test func templateToPNG() async throws {
        let output = work.appendingPathComponent("ticket.png")
        let result = try await Subprocess.tessera(["pass", "preview", "--template", templates.appendingPathComponent("event-ticket").path,
                                             "--scale", "1", "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("320x"))
        let report = try await PixelReport.read(try Data(contentsOf: output))
        #expect(report.width == 320)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0 != "preview.png" } == ["ticket.png"])
    }

    @Test("a template whose identifiers the certificate will give (empty, as Pass Designer saves them) is valid")
    func identifiersFromTheCertificate() async throws {
        let template = work.appendingPathComponent("Designer.pkpasstemplate")
        try FileManager.default.copyItem(at: templates.appendingPathComponent("coupon"), to: template)
        let passJSON = template.appendingPathComponent("pass.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: passJSON)) as? [String: Any])
        json["teamIdentifier"] = ""
        json["passTypeIdentifier"] = ""
        try JSONSerialization.data(withJSONObject: json).write(to: passJSON)
        let result = try await Subprocess.tessera(["pass", "preview", "--template", template.path,
                                                   "--output", work.appendingPathComponent("designer.png").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("pass valid"), "\(result.stdout)")
    }

    @Test("a PDF image the preview cannot draw is named, not left out without a word")
    func pdfImageNamed() async throws {
        let template = work.appendingPathComponent("pdf-logo")
        try FileManager.default.copyItem(at: templates.appendingPathComponent("coupon"), to: template)
        for name in try FileManager.default.contentsOfDirectory(atPath: template.path) where name.hasPrefix("logo") {
            try FileManager.default.removeItem(at: template.appendingPathComponent(name))
        }
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: template.appendingPathComponent("logo.pdf"))
        let result = try await Subprocess.tessera(["pass", "preview", "--template", template.path,
                                                   "--output", work.appendingPathComponent("pdf.png").path])
        #expect(result.stderr.contains("logo.pdf: not drawn; the preview draws PNG images only"), "\(result.stderr)")
        #expect(!result.stderr.contains("icon.png: not drawn"))
    }

    @Test func templateWithDataBackInFrench() async throws {
        let data = work.appendingPathComponent("data.json")
        try Data(#"{"fields": {"terms": "Pas de remboursement & pas d'échange"}}"#.utf8).write(to: data)
        let output = work.appendingPathComponent("back.svg")
        let result = try await Subprocess.tessera(["pass", "preview", "--template", templates.appendingPathComponent("event-ticket").path,
                                             "--data", data.path, "--side", "back", "--lang", "fr", "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOf: output, encoding: .utf8)
        #expect(svg.contains(">Ouverture des portes</text>"))
        #expect(svg.contains("Pas de remboursement &amp; pas d&apos;échange"))
    }

    @Test func pkpassToSVG() async throws {
        // An unsigned bundle is enough to draw: zip the template's files with Python's zipfile.
        let folder = templates.appendingPathComponent("coupon").path
        let pkpass = work.appendingPathComponent("coupon.pkpass").path
        let zipped = try await Subprocess.run("python3", ["-c", """
            import os, sys, zipfile
            with zipfile.ZipFile(sys.argv[2], "w") as z:
                for root, _, names in os.walk(sys.argv[1]):
                    for name in names:
                        path = os.path.join(root, name)
                        z.write(path, os.path.relpath(path, sys.argv[1]))
            """, folder, pkpass])
        #expect(zipped.status == 0, "\(zipped.stderr)")
        let output = work.appendingPathComponent("coupon.svg")
        let result = try await Subprocess.tessera(["pass", "preview", pkpass, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: output, encoding: .utf8).contains(">20% off</text>"))
    }

    @Test("--lang for a language the pass lacks: the English text Wallet falls back to, and a warning naming it")
    func missingLanguageFallsBackToEnglish() async throws {
        let output = work.appendingPathComponent("de.svg")
        let result = try await Subprocess.tessera(["pass", "preview", "--template", templates.appendingPathComponent("event-ticket").path,
                                             "--lang", "de", "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(
            "--lang de: the pass has no de.lproj, so the preview shows its en.lproj text, as Wallet would (languages it has: en, fr)"),
            "\(result.stderr)")
        let svg = try String(contentsOf: output, encoding: .utf8)
        #expect(svg.contains(">EVENT</text>") && !svg.contains("EVENT_LABEL"))
    }

    @Test("The poster event ticket template is drawn as a poster")
    func posterTemplate() async throws {
        let output = work.appendingPathComponent("poster.svg")
        let result = try await Subprocess.tessera(["pass", "preview", "--template",
                                             templates.appendingPathComponent("poster-event-ticket").path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: output, encoding: .utf8).contains("data-layout=\"posterEventTicket\""))
    }

    @Test func usageErrorsExitTwo() async throws {
        let template = templates.appendingPathComponent("generic").path
        for arguments in [["--template", template, "--output", work.appendingPathComponent("x.jpg").path],
                          ["--template", template, "--side", "left", "--output", work.appendingPathComponent("x.svg").path],
                          ["--output", work.appendingPathComponent("x.svg").path]] {
            let result = try await Subprocess.tessera(["pass", "preview"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
    }

    @Test func missingInputExitsOneNamingThePath() async throws {
        let missing = work.appendingPathComponent("nowhere.pkpass").path
        let result = try await Subprocess.tessera(["pass", "preview", missing, "--output", work.appendingPathComponent("x.png").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(missing))
        let noTemplate = work.appendingPathComponent("no-template").path
        let second = try await Subprocess.tessera(["pass", "preview", "--template", noTemplate, "--output", work.appendingPathComponent("x.png").path])
        #expect(second.status == 1)
        #expect(second.stderr.contains(noTemplate))
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("x.png").path))
    }
}
