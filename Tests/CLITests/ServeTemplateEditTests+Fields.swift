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
            _ = try await ServeCampaignTests.createPass(server, serial: "OLD-1")
            let first = try await Self.listedVersion(server)
            // The venue's default changes: passes made from now on show the new hall; OLD-1 keeps the arena.
            let file = templates.appendingPathComponent("event-ticket/pass.json")
            let text = try String(contentsOf: file, encoding: .utf8)
            try #require(text.contains("Tessera Arena"))
            try text.replacingOccurrences(of: "Tessera Arena", with: "New Hall").write(to: file, atomically: true, encoding: .utf8)
            kill(server.serve.process.processIdentifier, SIGHUP)
            try #require(try await Self.waitForVersion(after: first, server) != first)
            _ = try await ServeCampaignTests.createPass(server, serial: "NEW-1")

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
}
