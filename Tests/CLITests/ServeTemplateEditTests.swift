import Foundation
import Testing
import TesseraTestSupport

/// Edited templates against `tessera serve`: the server notices an edit (on SIGHUP, and by looking at the files),
/// new passes use the new content, existing passes keep the version they were made from (also when they change, and
/// after a restart that finds only the new files on disk) until a campaign republishes the template.
@Suite("tessera serve template edits")
struct ServeTemplateEditTests {
    typealias Server = OrdersServer

    /// A templates folder with a copy of the shipped event ticket.
    static func templatesFolder() throws -> URL {
        let templates = try TemporaryDirectory.make(prefix: "edited-templates")
        try FileManager.default.copyItem(
            at: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/event-ticket"),
            to: templates.appendingPathComponent("event-ticket"))
        return templates
    }

    /// Rewrites the template's `description` (shown by VoiceOver and in Wallet's notifications: in every signed pass).
    static func editDescription(in templates: URL, to description: String) throws {
        let file = templates.appendingPathComponent("event-ticket/pass.json")
        var pass = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        pass["description"] = description
        try JSONSerialization.data(withJSONObject: pass, options: [.prettyPrinted, .sortedKeys]).write(to: file)
    }

    /// The event ticket's content version as `GET /api/v1/templates` gives it.
    static func listedVersion(_ server: Server) async throws -> String? {
        let answer = try await server.api("GET", "/api/v1/templates")
        let listed = try Server.json(answer.body)["templates"] as? [[String: Any]] ?? []
        return listed.first { $0["name"] as? String == "event-ticket" }?["contentVersion"] as? String
    }

    /// Waits until the listed version differs from `old` (up to 30 s, scaled on a loaded machine).
    static func waitForVersion(after old: String?, _ server: Server) async throws -> String? {
        let deadline = Date().addingTimeInterval(TestTime.seconds(30))
        while Date() < deadline {
            let version = try await listedVersion(server)
            if version != old { return version }
            try await Task.sleep(for: .milliseconds(100))
        }
        return old
    }

    /// The `description` of a pass's current version, fetched as a device fetches it.
    static func description(_ server: Server, serial: String, token: String) async throws -> String? {
        let fetched = try await server.send(
            "GET", "/v1/passes/\(Server.passType)/\(serial)", headers: ["Authorization: ApplePass \(token)"])
        try #require(fetched.status == 200, "\(fetched.head)")
        return try await ServeCampaignTests.passJSON(in: fetched.body, server: server)["description"] as? String
    }

    @Test("after SIGHUP new passes use the edited template; existing ones keep theirs through a change and a restart until republished",
          arguments: Server.Database.tested)
    func sighupThenRepublish(database: Server.Database) async throws {
        let templates = try Self.templatesFolder()
        try Self.editDescription(in: templates, to: "Concert ticket, first print")
        try await Server.with(database, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            let oldToken = try await ServeCampaignTests.createPass(server, serial: "ED-OLD")
            let first = try await Self.listedVersion(server)
            #expect(try await Self.description(server, serial: "ED-OLD", token: oldToken) == "Concert ticket, first print")

            try Self.editDescription(in: templates, to: "Concert ticket, moved to Hall B")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await Self.listedVersion(server) == first, "without SIGHUP (and with polling off) nothing is read")
            kill(server.serve.process.processIdentifier, SIGHUP)
            let second = try await Self.waitForVersion(after: first, server)
            #expect(second != first, "SIGHUP reads the templates again")

            let newToken = try await ServeCampaignTests.createPass(server, serial: "ED-NEW")
            #expect(try await Self.description(server, serial: "ED-NEW", token: newToken) == "Concert ticket, moved to Hall B")
            // The console's count: one pass on the new version, one left on the first.
            let counts = try Server.json(try await server.api("GET", "/api/v1/templates/event-ticket/versions").body)
            #expect(counts["currentVersion"] as? String == second && counts["passesOnOlderVersions"] as? Int == 1, "\(counts)")
            let listed = (counts["versions"] as? [[String: Any]] ?? []).map { "\($0["version"] ?? "-"):\($0["passes"] ?? 0)" }
            #expect(listed == ["\(second ?? ""):1", "\(first ?? ""):1"], "\(listed)")
            // A change to the old pass is a new version, still built from the template it was made from.
            let patched = try await server.api("PATCH", "/api/v1/passes/\(Server.passType)/ED-OLD",
                                               body: #"{"data":{"fields":{"seat":"F-12"}}}"#)
            #expect(patched.status == 200, "\(String(decoding: patched.body, as: UTF8.self))")
            #expect(try await Self.description(server, serial: "ED-OLD", token: oldToken) == "Concert ticket, first print")

            // A new process finds only the edited files on disk: the old version comes from the store.
            _ = try await server.serve.terminate()
            let restarted = Server(
                serve: try await ServeProcess(arguments: server.serve.arguments, reusing: server.serve),
                apns: server.apns, work: server.work, database: server.database)
            do {
                #expect(try await Self.description(restarted, serial: "ED-OLD", token: oldToken) == "Concert ticket, first print")
                let (status, accepted) = try await ServeCampaignTests.campaign(
                    restarted, #"{"select":{"template":"event-ticket"},"republishTemplate":true}"#)
                #expect(status == 202, "\(accepted)")
                let done = try await ServeCampaignTests.finished(restarted, try #require(accepted["id"] as? String))
                #expect(done["state"] as? String == "done", "\(done)")
                // ED-NEW is on the current content already: selected, not changed (no new version, no push).
                #expect(done["matched"] as? Int == 2 && done["changed"] as? Int == 1, "\(done)")
                #expect(try await Self.description(restarted, serial: "ED-OLD", token: oldToken) == "Concert ticket, moved to Hall B")
                #expect(try await Self.description(restarted, serial: "ED-NEW", token: newToken) == "Concert ticket, moved to Hall B")
                #expect(try await Self.listedVersion(restarted) == second)
                let after = try Server.json(try await restarted.api("GET", "/api/v1/templates/event-ticket/versions").body)
                #expect(after["passesOnOlderVersions"] as? Int == 0, "\(after)")
            } catch {
                _ = try? await restarted.serve.terminate()
                throw error
            }
            _ = try await restarted.serve.terminate()
        }
    }

    /// Adds (`label` given) or removes (`nil`) an auxiliary field of the event ticket.
    static func editField(in templates: URL, key: String, label: String?) throws {
        let file = templates.appendingPathComponent("event-ticket/pass.json")
        var pass = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var ticket = try #require(pass["eventTicket"] as? [String: Any])
        var fields = (ticket["auxiliaryFields"] as? [[String: Any]] ?? []).filter { $0["key"] as? String != key }
        if let label { fields.append(["key": key, "label": label, "value": "-"]) }
        ticket["auxiliaryFields"] = fields
        pass["eventTicket"] = ticket
        try JSONSerialization.data(withJSONObject: pass, options: [.prettyPrinted, .sortedKeys]).write(to: file)
    }

    @Test("a campaign leaves out, and reports, the passes its change does not fit: data for a field an earlier version lacks, a republish dropping a field a pass sets")
    func campaignsCheckEachVersion() async throws {
        let templates = try Self.templatesFolder()
        try await Server.with(.sqlite, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            let oldToken = try await ServeCampaignTests.createPass(server, serial: "V1-1", fields: #"{"seat":"A1"}"#)
            let first = try await Self.listedVersion(server)
            try Self.editField(in: templates, key: "gate", label: "Gate")
            kill(server.serve.process.processIdentifier, SIGHUP)
            let second = try await Self.waitForVersion(after: first, server)
            try #require(second != first)
            let newToken = try await ServeCampaignTests.createPass(server, serial: "V2-1")

            // The new field: the pass made before it exists is refused, named, and left as it was.
            let (status, accepted) = try await ServeCampaignTests.campaign(
                server, #"{"select":{"template":"event-ticket"},"data":{"fields":{"gate":"G7"}}}"#)
            #expect(status == 202, "\(accepted)")
            let done = try await ServeCampaignTests.finished(server, try #require(accepted["id"] as? String))
            #expect(done["state"] as? String == "done" && done["changed"] as? Int == 1 && done["failed"] as? Int == 1, "\(done)")
            let errors = done["errors"] as? [[String: Any]] ?? []
            #expect(errors.first?["serialNumber"] as? String == "V1-1" && (errors.first?["reason"] as? String ?? "").contains("gate"), "\(errors)")
            let old = try await ServeCampaignTests.pass(server, "V1-1")
            #expect((((old["data"] as? [String: Any])?["fields"]) as? [String: Any])?["gate"] == nil, "\(old)")
            for (serial, token) in [("V1-1", oldToken), ("V2-1", newToken)] {
                let fetched = try await server.send("GET", "/v1/passes/\(Server.passType)/\(serial)", headers: ["Authorization: ApplePass \(token)"])
                #expect(fetched.status == 200, "\(serial): \(fetched.head)")
            }

            // The template drops "seat": republishing leaves the pass that sets a seat on its version, and says why.
            try Self.editField(in: templates, key: "seat", label: nil)
            kill(server.serve.process.processIdentifier, SIGHUP)
            let third = try await Self.waitForVersion(after: second, server)
            try #require(third != second)
            let (republishStatus, republish) = try await ServeCampaignTests.campaign(
                server, #"{"select":{"template":"event-ticket"},"republishTemplate":true}"#)
            #expect(republishStatus == 202, "\(republish)")
            let moved = try await ServeCampaignTests.finished(server, try #require(republish["id"] as? String))
            #expect(moved["changed"] as? Int == 1 && moved["failed"] as? Int == 1, "\(moved)")
            let reasons = moved["errors"] as? [[String: Any]] ?? []
            #expect(reasons.first?["serialNumber"] as? String == "V1-1" && (reasons.first?["reason"] as? String ?? "").contains("fields.seat"), "\(reasons)")
            let fetched = try await server.send("GET", "/v1/passes/\(Server.passType)/V1-1", headers: ["Authorization: ApplePass \(oldToken)"])
            #expect(fetched.status == 200, "\(fetched.head)")

            // Fields given as something other than an object are refused, not stored in place of every pass's own.
            let (arrayStatus, arrayAnswer) = try await ServeCampaignTests.campaign(
                server, #"{"select":{"template":"event-ticket"},"data":{"fields":[]}}"#)
            #expect(arrayStatus == 422 && String(describing: arrayAnswer).contains("data.fields"), "\(arrayAnswer)")
            let patched = try await server.api("PATCH", "/api/v1/passes/\(Server.passType)/V2-1", body: #"{"data":{"fields":["x"]}}"#)
            #expect(patched.status == 422, "\(String(decoding: patched.body, as: UTF8.self))")
        }
    }

    @Test("SIGHUP sent as soon as the server answers is acted on, not fatal, and the templates are read again")
    func sighupAtStart() async throws {
        let templates = try Self.templatesFolder()
        try await Server.with(.sqlite, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            try Self.editDescription(in: templates, to: "Edited as the server started")
            kill(server.serve.process.processIdentifier, SIGHUP)
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            while !server.serve.log.contains("SIGHUP: reading the templates again"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(server.serve.process.isRunning, "SIGHUP ended the server")
            #expect(server.serve.log.contains("SIGHUP: reading the templates again"), "\(server.serve.log.suffix(2_000))")
            // Whatever the start-up read saw, the read after the signal saw the edit.
            let token = try await ServeCampaignTests.createPass(server, serial: "HUP-1")
            #expect(try await Self.description(server, serial: "HUP-1", token: token) == "Edited as the server started")
        }
    }

    @Test("an edit on disk is noticed without SIGHUP; a template that stops loading keeps its passes served")
    func polling() async throws {
        let templates = try Self.templatesFolder()
        try await Server.with(.sqlite, arguments: ["--templates", templates.path, "--template-poll-interval", "0.2"]) { server in
            let token = try await ServeCampaignTests.createPass(server, serial: "PO-1")
            let shipped = try await Self.description(server, serial: "PO-1", token: token)
            let first = try await Self.listedVersion(server)
            try Self.editDescription(in: templates, to: "Edited while serving")
            let second = try await Self.waitForVersion(after: first, server)
            #expect(second != first, "the edit was noticed")
            let newToken = try await ServeCampaignTests.createPass(server, serial: "PO-2")
            #expect(try await Self.description(server, serial: "PO-2", token: newToken) == "Edited while serving")

            // Broken on disk: new passes fail with the template named (the server's own fault, so a 500), existing ones
            // still change and serve.
            try Data("{".utf8).write(to: templates.appendingPathComponent("event-ticket/pass.json"))
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            var refused = (status: 0, head: "", body: Data())
            var attempt = 0
            while Date() < deadline {
                attempt += 1
                refused = try await server.api(
                    "POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{"serialNumber":"PO-B\#(attempt)"}}"#)
                if refused.status != 201 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(refused.status == 500, "\(String(decoding: refused.body, as: UTF8.self))")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("template event-ticket cannot be loaded"))
            // The file is named within the templates folder, not by the server's own path.
            #expect(!String(decoding: refused.body, as: UTF8.self).contains(templates.path), "\(String(decoding: refused.body, as: UTF8.self))")
            let listed = String(decoding: try await server.api("GET", "/api/v1/templates").body, as: UTF8.self)
            #expect(listed.contains("event-ticket/pass.json") && !listed.contains(templates.path), "\(listed)")
            let patched = try await server.api("PATCH", "/api/v1/passes/\(Server.passType)/PO-1",
                                               body: #"{"data":{"fields":{"seat":"A-1"}}}"#)
            #expect(patched.status == 200, "\(String(decoding: patched.body, as: UTF8.self))")
            #expect(try await Self.description(server, serial: "PO-1", token: token) == shipped)
        }
    }
}
