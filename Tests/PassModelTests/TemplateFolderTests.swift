import Foundation
import PassModel
import Testing

/// The repository's own templates (PassTemplates/) must load and validate without errors.
@Suite("PassTemplates folders")
struct TemplateFolderTests {
    static let names = [
        "boarding-pass", "coupon", "event-ticket", "store-card", "generic", "poster-event-ticket",
        "semantic-boarding-pass", "poster-generic",
    ]

    static var templatesRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // PassModelTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // repository root
            .appendingPathComponent("PassTemplates")
    }

    @Test(arguments: names)
    func templateLoadsAndValidates(name: String) throws {
        let template = try PassTemplate(directory: Self.templatesRoot.appendingPathComponent(name))
        let report = PassValidator().validate(passJSON: template.passJSON, files: template.files)
        #expect(report.errors.isEmpty, "\(name): \(report.errors.map(\.description).joined(separator: "\n"))")
    }

    /// The poster and semantic templates get the layout they ask for: no warning but the NFC certificate note.
    @Test(arguments: ["poster-event-ticket", "semantic-boarding-pass", "poster-generic"])
    func iOS27TemplatesQualifyForTheirLayout(name: String) throws {
        let template = try PassTemplate(directory: Self.templatesRoot.appendingPathComponent(name))
        let report = PassValidator().validate(passJSON: template.passJSON, files: template.files)
        let warnings = report.warnings.filter { $0.path != "nfc" }
        #expect(report.issues(at: "preferredStyleSchemes").isEmpty)
        #expect(warnings.isEmpty, "\(name): \(warnings.map(\.description).joined(separator: "\n"))")
        let files = Set(template.files.keys)
        if name != "semantic-boarding-pass" {
            #expect(files.isSuperset(of: ["artwork.png", "artwork@2x.png", "artwork@3x.png"]))
        }
    }
}
