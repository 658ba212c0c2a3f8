import Foundation
import Testing
import TesseraTestSupport

/// Campaigns from the command line, with images in their data, and the template listing they select from.
extension ServeCampaignTests {
    @Test("tessera campaign create --wait, show, list and cancel against the server; usage errors exit 2",
          arguments: [Server.Database.sqlite])
    func commandLine(database: Server.Database) async throws {
        try await Server.with(database) { server in
            for index in 1...3 { try await Self.createPass(server, serial: "L-\(index)") }
            let common = ["--server", server.serve.baseURL,
                          "--admin-token-file", server.serve.folder.appendingPathComponent("admin.token").path]
            let created = try await offCooperativePool {
                try Subprocess.tessera(["campaign", "create"] + common + [
                    "--template", "event-ticket", "--set", "seat=12", "--message", "New seat", "--wait",
                ])
            }
            #expect(created.status == 0, "\(created.stderr)")
            let campaign = try #require(try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])
            #expect(campaign["state"] as? String == "done")
            #expect(campaign["changed"] as? Int == 3)
            let id = try #require(campaign["id"] as? String)
            let data = try await Self.pass(server, "L-2")["data"] as? [String: Any]
            #expect((data?["fields"] as? [String: Any])?["seat"] as? String == "12")

            let shown = try await offCooperativePool { try Subprocess.tessera(["campaign", "show", id] + common) }
            #expect(shown.status == 0 && shown.stdout.contains(id), "\(shown.stderr)")
            let listed = try await offCooperativePool { try Subprocess.tessera(["campaign", "list", "--state", "done"] + common) }
            #expect(listed.status == 0 && listed.stdout.contains(id), "\(listed.stderr)")

            let later = Date().addingTimeInterval(3600).formatted(Date.ISO8601FormatStyle())
            let scheduled = try await offCooperativePool {
                try Subprocess.tessera(["campaign", "create"] + common + ["--template", "event-ticket", "--void", "--at", later])
            }
            #expect(scheduled.status == 0, "\(scheduled.stderr)")
            let pending = try #require(try JSONSerialization.jsonObject(with: Data(scheduled.stdout.utf8)) as? [String: Any])
            let pendingID = try #require(pending["id"] as? String)
            let cancelled = try await offCooperativePool { try Subprocess.tessera(["campaign", "cancel", pendingID] + common) }
            #expect(cancelled.status == 0 && cancelled.stdout.contains("\"cancelled\""), "\(cancelled.stderr)")
            let again = try await offCooperativePool { try Subprocess.tessera(["campaign", "cancel", pendingID] + common) }
            #expect(again.status == 1 && again.stderr.contains("409"), "\(again.stderr)")

            // Refusals: the server's (exit 1, its message) and usage errors (exit 2).
            let refused = try await offCooperativePool {
                try Subprocess.tessera(["campaign", "create"] + common + ["--template", "nope", "--void"])
            }
            #expect(refused.status == 1 && refused.stderr.contains("select.template"), "\(refused.stderr)")
            let noSelection = try await offCooperativePool { try Subprocess.tessera(["campaign", "create"] + common + ["--void"]) }
            #expect(noSelection.status == 2, "\(noSelection.stderr)")
            for (flags, named) in [
                (["--template", "event-ticket", "--void", "--unvoid"], "one action per campaign"),
                (["--template", "event-ticket"], "say what the campaign does"),
                (["--template", "event-ticket", "--pass-type-identifier", "pass.dev.tessera.demo", "--void"], "--pass-type-identifier"),
                (["--template", "event-ticket", "--void", "--at", "tomorrow"], "--at: tomorrow"),
                (["--template", "event-ticket", "--set", "seat=1", "--set", "seat=2"], "--set: seat given twice"),
            ] {
                let usage = try await offCooperativePool { try Subprocess.tessera(["campaign", "create"] + common + flags) }
                #expect(usage.status == 2 && usage.stderr.contains(named), "\(flags): \(usage.stderr)")
            }
            // A value given as text selects a field holding that number, as the pass search does.
            try await Self.createPass(server, serial: "L-9", fields: #"{"row":14}"#)
            let byNumber = try await offCooperativePool {
                try Subprocess.tessera(["campaign", "create"] + common + [
                    "--template", "event-ticket", "--where-field", "row=14", "--set", "seat=99", "--wait",
                ])
            }
            #expect(byNumber.status == 0, "\(byNumber.stderr)")
            let selected = try #require(try JSONSerialization.jsonObject(with: Data(byNumber.stdout.utf8)) as? [String: Any])
            #expect(selected["matched"] as? Int == 1 && selected["changed"] as? Int == 1, "\(selected)")
            // --set-json gives a field the number Wallet formats (an amount, a count); a value that is not JSON is a
            // usage error naming it.
            let numbered = try await offCooperativePool {
                try Subprocess.tessera(["campaign", "create"] + common + [
                    "--template", "event-ticket", "--where-field", "row=14", "--set-json", "row=15", "--set", "seat=7", "--wait",
                ])
            }
            #expect(numbered.status == 0, "\(numbered.stderr)")
            let fields = (try await Self.pass(server, "L-9")["data"] as? [String: Any])?["fields"] as? [String: Any]
            #expect(fields?["row"] as? Int == 15 && fields?["seat"] as? String == "7", "\(String(describing: fields))")
            let notJSON = try await offCooperativePool {
                try Subprocess.tessera(["campaign", "create"] + common + ["--template", "event-ticket", "--set-json", "row=fifteen"])
            }
            #expect(notJSON.status == 2 && notJSON.stderr.contains("--set-json: row"), "\(notJSON.stderr)")
            let noToken = try await offCooperativePool {
                try Subprocess.tessera(["campaign", "list", "--server", server.serve.baseURL], environment: ["TESSERA_ADMIN_TOKEN": ""])
            }
            #expect(noToken.status == 2, "\(noToken.stderr)")
        }
    }

    @Test("a campaign's data carries images: every selected pass shows its new image; an image the style does not show is refused",
          arguments: [Server.Database.sqlite])
    func images(database: Server.Database) async throws {
        try await Server.with(database) { server in
            let token = try await Self.createPass(server, serial: "IM-1")
            try await Self.createPass(server, serial: "IM-2")
            let photo = TestPNG.make(width: 90, height: 90, comment: "campaign photo")
            let (status, accepted) = try await Self.campaign(server, #"""
                {"select":{"template":"event-ticket"},"data":{"images":{"thumbnail.png":"\#(photo.base64EncodedString())"}}}
                """#)
            #expect(status == 202, "\(accepted)")
            let done = try await Self.finished(server, try #require(accepted["id"] as? String))
            #expect(done["changed"] as? Int == 2, "\(done)")
            let fetched = try await server.send("GET", "/v1/passes/\(Self.passType)/IM-1", headers: ["Authorization: ApplePass \(token)"])
            #expect(fetched.status == 200)
            let file = server.work.appendingPathComponent("images-\(UUID().uuidString).pkpass")
            try fetched.body.write(to: file)
            let read = try await Subprocess.run("/usr/bin/env", ["python3", "-c",
                "import sys, zipfile, base64; sys.stdout.write(base64.b64encode(zipfile.ZipFile(sys.argv[1]).read('thumbnail.png')).decode())",
                file.path])
            #expect(read.status == 0 && read.stdout == photo.base64EncodedString(), "\(read.stderr)")

            let footer = try await Self.campaign(server, #"""
                {"select":{"template":"event-ticket"},"data":{"images":{"footer.png":"\#(photo.base64EncodedString())"}}}
                """#)
            #expect(footer.status == 422)
            #expect(((footer.json["error"] as? [String: Any])?["message"] as? String ?? "").contains("images.footer.png"), "\(footer.json)")
        }
    }

    @Test("GET /api/v1/templates lists every template with a content version that changes with any file")
    func templateVersions() async throws {
        let templates = try TemporaryDirectory.make(prefix: "campaign-templates")
        for name in ["event-ticket", "coupon"] {
            try FileManager.default.copyItem(
                at: Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/\(name)"),
                to: templates.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: templates.appendingPathComponent("coupon"), to: templates.appendingPathComponent("coupon-edited"))
        let strings = templates.appendingPathComponent("coupon-edited/en.lproj/pass.strings")
        try (try Data(contentsOf: strings) + Data("\n/* edited */\n".utf8)).write(to: strings)
        try FileManager.default.createDirectory(at: templates.appendingPathComponent("broken"), withIntermediateDirectories: true)
        try Data("{".utf8).write(to: templates.appendingPathComponent("broken/pass.json"))
        try await Server.with(.sqlite, arguments: ["--templates", templates.path]) { server in
            let answer = try await server.api("GET", "/api/v1/templates")
            #expect(answer.status == 200)
            let listed = try Server.json(answer.body)["templates"] as? [[String: Any]] ?? []
            #expect(listed.compactMap { $0["name"] as? String } == ["broken", "coupon", "coupon-edited", "event-ticket"])
            let versions = Dictionary(uniqueKeysWithValues: listed.compactMap { item in
                (item["name"] as? String).map { ($0, item["contentVersion"] as? String) }
            })
            for name in ["coupon", "coupon-edited", "event-ticket"] {
                #expect(versions[name]??.wholeMatch(of: /[0-9a-f]{16}/) != nil, "\(name): \(String(describing: versions[name]))")
            }
            #expect(versions["coupon"] != versions["coupon-edited"], "an edited localization is another version")
            #expect((listed.first { $0["name"] as? String == "broken" }?["error"] as? String ?? "").contains("broken"))
            #expect(listed.first { $0["name"] as? String == "event-ticket" }?["style"] as? String == "eventTicket")
            let again = try Server.json(try await server.api("GET", "/api/v1/templates").body)["templates"] as? [[String: Any]] ?? []
            #expect(again.compactMap { $0["contentVersion"] as? String } == listed.compactMap { $0["contentVersion"] as? String })
        }
    }
}
