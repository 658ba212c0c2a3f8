import Foundation
import PassModel
import Testing

/// The repository's own templates (PassTemplates/) must load and validate without errors.
@Suite("PassTemplates folders")
struct TemplateFolderTests {
    static let names = ["boarding-pass", "coupon", "event-ticket", "store-card", "generic"]

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
}
