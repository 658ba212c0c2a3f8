import Foundation
import Testing
import TesseraTestSupport

/// A campaign selecting by field values compares what each pass shows: a field the pass does not set has its
/// template's value as the version the pass is pinned to has it.
extension ServeTemplateEditTests {
    @Test("select.fields matches a pass made before the template's default changed by the value it still shows")
    func fieldSelectionByPinnedDefaults() async throws {
        let templates = try Self.templatesFolder()
        try await Server.with(.sqlite, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            // The venue's default changes: passes made from now on show the new hall; OLD-1 keeps the arena.
            try await Self.passesAcrossAnEdit(server, templates, replacing: "Tessera Arena", with: "New Hall")

            let (status, accepted) = try await ServeCampaignTests.campaign(server, """
                {"select":{"template":"event-ticket","fields":{"venue":"Tessera Arena"}},"data":{"fields":{"seat":"Z9"}}}
                """)
            #expect(status == 202, "\(accepted)")
            let done = try await ServeCampaignTests.finished(server, try #require(accepted["id"] as? String))
            #expect(done["state"] as? String == "done" && done["matched"] as? Int == 1 && done["changed"] as? Int == 1, "\(done)")
            let old = try await ServeCampaignTests.pass(server, "OLD-1")
            #expect((((old["data"] as? [String: Any])?["fields"]) as? [String: Any])?["seat"] as? String == "Z9", "\(old)")
            let new = try await ServeCampaignTests.pass(server, "NEW-1")
            #expect((((new["data"] as? [String: Any])?["fields"]) as? [String: Any])?["seat"] == nil, "\(new)")
        }
    }

    @Test("a field renamed by an edit: its old key still searches the passes pinned to the version that has it, and the export keeps its column")
    func renamedFieldStillSearched() async throws {
        let templates = try Self.templatesFolder()
        try await Server.with(.sqlite, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            try await Self.passesAcrossAnEdit(server, templates, replacing: #""key": "venue""#, with: #""key": "hall""#)

            let found = try await server.api("GET", "/api/v1/passes?template=event-ticket&field.venue=Tessera+Arena")
            #expect(found.status == 200, "\(String(decoding: found.body, as: UTF8.self))")
            let items = (try? Server.json(found.body)["passes"] as? [[String: Any]]) ?? []
            #expect(items.compactMap { $0["serialNumber"] as? String } == ["OLD-1"], "\(items)")
            #expect(try await server.api("GET", "/api/v1/passes?template=event-ticket&field.vneue=x").status == 400)
            let csv = try await ServeListTests.fetch(server, "/api/v1/passes?template=event-ticket", accept: "text/csv")
            let lines = String(decoding: csv.body, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(lines.first?.contains("field.hall") == true && lines.first?.contains("field.venue") == true, "\(lines.first ?? "")")
            #expect(lines.contains { $0.contains("OLD-1") && $0.contains("Tessera Arena") }, "\(lines)")
        }
    }

    /// OLD-1 made, event-ticket's `pass.json` edited (`text` replaced) and read again on SIGHUP, then NEW-1 made.
    static func passesAcrossAnEdit(_ server: Server, _ templates: URL, replacing text: String, with replacement: String)
        async throws
    {
        _ = try await ServeCampaignTests.createPass(server, serial: "OLD-1")
        let first = try await listedVersion(server)
        let file = templates.appendingPathComponent("event-ticket/pass.json")
        let content = try String(contentsOf: file, encoding: .utf8)
        try #require(content.contains(text))
        try content.replacingOccurrences(of: text, with: replacement).write(to: file, atomically: true, encoding: .utf8)
        kill(server.serve.process.processIdentifier, SIGHUP)
        try #require(try await waitForVersion(after: first, server) != first)
        _ = try await ServeCampaignTests.createPass(server, serial: "NEW-1")
    }
}
