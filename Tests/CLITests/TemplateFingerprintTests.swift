import Foundation
import Testing
@testable import TesseraServer

/// What the template watcher compares between polls.
@Suite("Template watcher: the templates' fingerprint")
struct TemplateFingerprintTests {
    @Test("an edit inside a template folder reached through a symbolic link changes the fingerprint; a link loop ends")
    func symlinkedTemplateFolders() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fingerprint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let release = root.appendingPathComponent("releases/42/event-ticket")
        let templates = root.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: release.appendingPathComponent("fr.lproj"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: release.appendingPathComponent("pass.json"))
        try Data("\"a\" = \"b\";".utf8).write(to: release.appendingPathComponent("fr.lproj/pass.strings"))
        try FileManager.default.createSymbolicLink(at: templates.appendingPathComponent("event-ticket"), withDestinationURL: release)
        // A loop back to the templates folder is walked once.
        try FileManager.default.createSymbolicLink(at: release.appendingPathComponent("loop"), withDestinationURL: templates)

        let before = TemplateWatcher.fingerprint(of: templates)
        #expect(before.count == 2, "\(before)")
        try Data(#"{"description": "edited"}"#.utf8).write(to: release.appendingPathComponent("pass.json"))
        let after = TemplateWatcher.fingerprint(of: templates)
        #expect(after.count == 2 && after != before)
    }
}
