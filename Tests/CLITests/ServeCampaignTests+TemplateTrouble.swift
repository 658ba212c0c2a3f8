import Foundation
import Testing
import TesseraTestSupport

/// A campaign whose template stops loading while it runs (an editor's half-saved `pass.json`) waits for it.
extension ServeCampaignTests {
    @Test("a republish whose template folder breaks before it runs waits for the folder, then changes every pass",
          arguments: [Server.Database.sqlite])
    func templateTroubleWaitedFor(database: Server.Database) async throws {
        let templates = try ServeRedemptionTests.templatesFolder()
        let passJSON = templates.appendingPathComponent("event-ticket/pass.json")
        let original = try Data(contentsOf: passJSON)
        try await Server.with(database, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            for index in 1...3 { try await Self.createPass(server, serial: "W-\(index)") }
            let at = Date().addingTimeInterval(TestTime.seconds(3)).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            let (status, scheduled) = try await Self.campaign(
                server, #"{"select":{"template":"event-ticket"},"republishTemplate":true,"scheduledAt":"\#(at)"}"#)
            try #require(status == 202, "\(scheduled)")
            let id = try #require(scheduled["id"] as? String)
            // Broken before its time, and read again by the server: the campaign starts and cannot load it.
            try Data("{ half-saved".utf8).write(to: passJSON)
            kill(server.serve.process.processIdentifier, SIGHUP)
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            var state: [String: Any] = [:]
            repeat {
                try await Task.sleep(for: .milliseconds(250))
                state = try Server.json(try await server.api("GET", "/api/v1/campaigns/\(id)").body)
            } while state["state"] as? String == "scheduled" && Date() < deadline
            try await Task.sleep(for: .seconds(2))  // several polls with the folder broken
            state = try Server.json(try await server.api("GET", "/api/v1/campaigns/\(id)").body)
            #expect(state["state"] as? String == "running" && state["changed"] as? Int == 0, "\(state)")
            // Saved whole (and edited, so that republishing changes the passes): the campaign goes on from its cursor.
            let edited = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "Tessera Arena", with: "Arena Hall")
            try #require(edited != String(decoding: original, as: UTF8.self))
            try Data(edited.utf8).write(to: passJSON)
            kill(server.serve.process.processIdentifier, SIGHUP)
            let done = try await Self.finished(server, id)
            #expect(done["state"] as? String == "done" && done["changed"] as? Int == 3, "\(done)")
        }
    }

    @Test("a void scheduled over a template whose folder is then removed voids its passes; a new one is still accepted",
          arguments: [Server.Database.sqlite])
    func removedTemplateFolder(database: Server.Database) async throws {
        let templates = try ServeRedemptionTests.templatesFolder()
        try await Server.with(database, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            for index in 1...3 { try await Self.createPass(server, serial: "R-\(index)") }
            let at = Date().addingTimeInterval(TestTime.seconds(3)).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            let (status, scheduled) = try await Self.campaign(
                server, #"{"select":{"template":"event-ticket"},"void":true,"scheduledAt":"\#(at)"}"#)
            try #require(status == 202, "\(scheduled)")
            let id = try #require(scheduled["id"] as? String)
            // The season is over: its folder is removed before the void runs, and the server reads the folder again.
            try FileManager.default.removeItem(at: templates.appendingPathComponent("event-ticket"))
            kill(server.serve.process.processIdentifier, SIGHUP)
            let done = try await Self.finished(server, id)
            #expect(done["state"] as? String == "done" && done["changed"] as? Int == 3, "\(done)")
            // Passes of the removed folder are still selected by its name (changed from the versions they are pinned
            // to); a republish has nothing to rebuild from and is refused, naming the template.
            let (again, unvoid) = try await Self.campaign(server, #"{"select":{"template":"event-ticket"},"unvoid":true}"#)
            #expect(again == 202, "\(unvoid)")
            let unvoided = try await Self.finished(server, try #require(unvoid["id"] as? String))
            #expect(unvoided["state"] as? String == "done" && unvoided["changed"] as? Int == 3, "\(unvoided)")
            let (refused, republish) = try await Self.campaign(
                server, #"{"select":{"template":"event-ticket"},"republishTemplate":true}"#)
            #expect(refused == 422 && "\(republish)".contains("select.template"), "\(republish)")
        }
    }
}
