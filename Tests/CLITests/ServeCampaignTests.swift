import Foundation
import Testing
import TesseraTestSupport

/// Campaigns over HTTP against `tessera serve` with pushes going to a local APNs stand-in: a change to every pass of a
/// template, of a list of serial numbers or of a field value, with one push per device, a lock-screen message, void
/// and unvoid, a schedule, cancellation, idempotency and the refusals that change nothing.
@Suite("tessera serve campaigns")
struct ServeCampaignTests {
    typealias Server = OrdersServer
    static let passType = OrdersServer.passType

    /// A push token per device (64 hexadecimal digits).
    static func pushToken(_ device: Int) -> String {
        String(format: "%064x", 0xC0FFEE00 + device)
    }

    /// Creates a pass; returns its authentication token.
    @discardableResult
    static func createPass(_ server: Server, template: String = "event-ticket", serial: String, fields: String = "{}")
        async throws -> String
    {
        let created = try await server.api("POST", "/api/v1/passes",
                                           body: #"{"template":"\#(template)","data":{"serialNumber":"\#(serial)","fields":\#(fields)}}"#)
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        return try #require(try Server.json(created.body)["authenticationToken"] as? String)
    }

    static func register(_ server: Server, device: Int, serial: String, token: String) async throws {
        let answer = try await server.send(
            "POST", "/v1/devices/device-\(device)/registrations/\(passType)/\(serial)",
            headers: ["Authorization: ApplePass \(token)"], body: #"{"pushToken":"\#(pushToken(device))"}"#)
        try #require(answer.status == 201, "\(answer.head)")
    }

    static func pass(_ server: Server, _ serial: String) async throws -> [String: Any] {
        let answer = try await server.api("GET", "/api/v1/passes/\(passType)/\(serial)")
        try #require(answer.status == 200, "\(answer.head)")
        return try Server.json(answer.body)
    }

    /// `POST /api/v1/campaigns`: the status and the answer.
    static func campaign(_ server: Server, _ body: String, key: String? = nil) async throws -> (status: Int, json: [String: Any]) {
        let answer = try await server.send(
            "POST", "/api/v1/campaigns",
            headers: ["Authorization: Bearer \(ServeProcess.adminToken)"] + (key.map { ["Idempotency-Key: \($0)"] } ?? []),
            body: body)
        return (answer.status, (try? Server.json(answer.body)) ?? [:])
    }

    /// Reads the campaign until it is in a final state (or 60 s, scaled on a loaded machine, pass).
    static func finished(_ server: Server, _ id: String) async throws -> [String: Any] {
        try await campaignWhenFinished(within: TestTime.seconds(60)) {
            try Server.json(try await server.api("GET", "/api/v1/campaigns/\(id)").body)
        }
    }

    /// The push tokens the stand-in received for the pass type, waiting (up to 30 s) until there are at least `count`.
    static func passPushes(_ server: Server, atLeast count: Int) async throws -> [String] {
        try await server.apns.requests(topic: Self.passType, within: 30) { $0.count >= count }.compactMap(\.pushToken)
    }

    @Test("by template with a message: every pass changed once, one push per device, the message on the back",
          arguments: Server.Database.tested)
    func byTemplate(database: Server.Database) async throws {
        try await Server.with(database) { server in
            var tokens: [String: String] = [:]
            for index in 1...6 { tokens["T-\(index)"] = try await Self.createPass(server, serial: "T-\(index)") }
            tokens["K-1"] = try await Self.createPass(server, template: "coupon", serial: "K-1")
            // Device 1 holds four tickets, device 2 one ticket and the coupon, device 3 only the coupon.
            for serial in ["T-1", "T-2", "T-3", "T-4"] { try await Self.register(server, device: 1, serial: serial, token: tokens[serial]!) }
            try await Self.register(server, device: 2, serial: "T-5", token: tokens["T-5"]!)
            try await Self.register(server, device: 2, serial: "K-1", token: tokens["K-1"]!)
            try await Self.register(server, device: 3, serial: "K-1", token: tokens["K-1"]!)
            let couponBefore = try await Self.pass(server, "K-1")["updateTag"] as? String
            let list = try await server.send("GET", "/v1/devices/device-1/registrations/\(Self.passType)")
            let before = try #require(try Server.json(list.body)["lastUpdated"] as? String)

            let (status, accepted) = try await Self.campaign(server, #"""
                {"select":{"template":"event-ticket"},"data":{"fields":{"terms":"Doors at 20:00"}},"message":"Doors now open at 20:00"}
                """#)
            #expect(status == 202, "\(accepted)")
            let id = try #require(accepted["id"] as? String)
            #expect(["scheduled", "running", "done"].contains(accepted["state"] as? String ?? ""))
            let done = try await Self.finished(server, id)
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["matched"] as? Int == 6)
            #expect(done["changed"] as? Int == 6)
            #expect(done["failed"] as? Int == 0)
            #expect(done["pushesQueued"] as? Int == 2, "devices 1 and 2 hold tickets: one push each")
            #expect(done["message"] as? String == "Doors now open at 20:00")

            let pushed = try await Self.passPushes(server, atLeast: 2)
            try await Task.sleep(for: .milliseconds(500))  // a third push would have arrived by now
            let all = server.apns.requests.filter { $0.headers["apns-topic"] == Self.passType }.compactMap(\.pushToken)
            #expect(all.sorted() == [Self.pushToken(1), Self.pushToken(2)].sorted(), "\(pushed)")
            // The stand-in answered both; the server records each as sent once it has read the answer.
            var sent = 0
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            while sent < 2 && Date() < deadline {
                sent = try Server.json(try await server.api("GET", "/api/v1/campaigns/\(id)").body)["pushesSent"] as? Int ?? 0
                if sent < 2 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(sent == 2)

            // Device 1 lists its four changed tickets; each changed once, with the field and the message.
            let changed = try await server.send(
                "GET", "/v1/devices/device-1/registrations/\(Self.passType)?passesUpdatedSince=\(before)")
            #expect(changed.status == 200)
            #expect(Set(try Server.json(changed.body)["serialNumbers"] as? [String] ?? []) == ["T-1", "T-2", "T-3", "T-4"])
            let fetched = try await server.send("GET", "/v1/passes/\(Self.passType)/T-1", headers: ["Authorization: ApplePass \(tokens["T-1"]!)"])
            #expect(fetched.status == 200)
            let passJSON = try await Self.passJSON(in: fetched.body, server: server)
            let back = ((passJSON["eventTicket"] as? [String: Any])?["backFields"] as? [[String: Any]]) ?? []
            #expect(back.contains { $0["key"] as? String == "terms" && $0["value"] as? String == "Doors at 20:00" })
            #expect(back.contains {
                $0["key"] as? String == "campaignMessage" && $0["value"] as? String == "Doors now open at 20:00"
                    && $0["changeMessage"] as? String == "%@"
            }, "\(back)")
            // The coupon was not selected: no new version.
            #expect(try await Self.pass(server, "K-1")["updateTag"] as? String == couponBefore)
        }
    }

    /// The `pass.json` inside a signed bundle.
    static func passJSON(in bundle: Data, server: Server) async throws -> [String: Any] {
        let file = server.work.appendingPathComponent("fetched-\(UUID().uuidString).pkpass")
        try bundle.write(to: file)
        let unzip = try await Subprocess.run("/usr/bin/env", ["python3", "-c",
            "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('pass.json').decode())", file.path])
        try #require(unzip.status == 0, "\(unzip.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(unzip.stdout.utf8)) as? [String: Any])
    }

    @Test("by serial numbers and by field value; missing serial numbers are reported, the rest changed",
          arguments: Server.Database.tested)
    func bySerialsAndFields(database: Server.Database) async throws {
        try await Server.with(database) { server in
            for index in 1...4 {
                try await Self.createPass(server, serial: "S-\(index)", fields: index <= 2 ? #"{"date":"2026-12-31T20:00Z"}"# : "{}")
            }
            let (status, accepted) = try await Self.campaign(server, #"""
                {"select":{"passTypeIdentifier":"\#(Self.passType)","serialNumbers":["S-3","S-4","S-404"]},"data":{"fields":{"seat":"1A"}}}
                """#)
            #expect(status == 202, "\(accepted)")
            let done = try await Self.finished(server, try #require(accepted["id"] as? String))
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["matched"] as? Int == 3)
            #expect(done["changed"] as? Int == 2)
            #expect(done["failed"] as? Int == 1)
            let errors = done["errors"] as? [[String: Any]] ?? []
            #expect(errors.first?["serialNumber"] as? String == "S-404")
            #expect((errors.first?["reason"] as? String ?? "").contains("no such pass"))
            for serial in ["S-3", "S-4"] {
                let data = try await Self.pass(server, serial)["data"] as? [String: Any]
                #expect((data?["fields"] as? [String: Any])?["seat"] as? String == "1A")
            }
            // The list gives a selection's count of serial numbers, the campaign itself the list.
            let listed = try Server.json(try await server.api("GET", "/api/v1/campaigns").body)["campaigns"] as? [[String: Any]] ?? []
            let inList = listed.first { $0["id"] as? String == accepted["id"] as? String }?["select"] as? [String: Any]
            #expect(inList?["serialNumberCount"] as? Int == 3 && inList?["serialNumbers"] == nil, "\(listed)")
            #expect((done["select"] as? [String: Any])?["serialNumbers"] as? [String] == ["S-3", "S-4", "S-404"])

            // By field value: only the two passes of the 31st.
            let (byFieldStatus, byField) = try await Self.campaign(server, #"""
                {"select":{"template":"event-ticket","fields":{"date":"2026-12-31T20:00Z"}},"data":{"fields":{"row":"Z"}}}
                """#)
            #expect(byFieldStatus == 202, "\(byField)")
            let fieldDone = try await Self.finished(server, try #require(byField["id"] as? String))
            #expect(fieldDone["matched"] as? Int == 2, "\(fieldDone)")
            #expect(fieldDone["changed"] as? Int == 2)
            for index in 1...4 {
                let data = try await Self.pass(server, "S-\(index)")["data"] as? [String: Any]
                #expect(((data?["fields"] as? [String: Any])?["row"] as? String == "Z") == (index <= 2), "S-\(index)")
            }
        }
    }

    @Test("void then unvoid: voided passes are left out of other campaigns; unvoid selects only them",
          arguments: [Server.Database.sqlite])
    func voidAndUnvoid(database: Server.Database) async throws {
        try await Server.with(database) { server in
            for index in 1...3 { try await Self.createPass(server, serial: "V-\(index)") }
            let (_, voiding) = try await Self.campaign(server, #"""
                {"select":{"passTypeIdentifier":"\#(Self.passType)","serialNumbers":["V-1","V-2"]},"void":true}
                """#)
            #expect(try await Self.finished(server, try #require(voiding["id"] as? String))["changed"] as? Int == 2)
            #expect(try await Self.pass(server, "V-1")["voided"] as? Bool == true)
            #expect(try await Self.pass(server, "V-3")["voided"] as? Bool == false)

            let (_, change) = try await Self.campaign(server, #"{"select":{"template":"event-ticket"},"data":{"fields":{"seat":"9"}}}"#)
            #expect(try await Self.finished(server, try #require(change["id"] as? String))["matched"] as? Int == 1)

            let (_, unvoiding) = try await Self.campaign(server, #"{"select":{"template":"event-ticket"},"unvoid":true}"#)
            let unvoided = try await Self.finished(server, try #require(unvoiding["id"] as? String))
            #expect(unvoided["matched"] as? Int == 2)
            #expect(unvoided["changed"] as? Int == 2)
            for index in 1...3 { #expect(try await Self.pass(server, "V-\(index)")["voided"] as? Bool == false) }

            // Changes that change nothing make no version (and push no device): a void of voided passes among others,
            // the same data again, and a PATCH sent twice.
            let (_, voidOne) = try await Self.campaign(server, #"""
                {"select":{"passTypeIdentifier":"\#(Self.passType)","serialNumbers":["V-1"]},"void":true}
                """#)
            _ = try await Self.finished(server, try #require(voidOne["id"] as? String))
            let (_, voidAll) = try await Self.campaign(server, #"{"select":{"template":"event-ticket","includeVoided":true},"void":true}"#)
            let voidedAll = try await Self.finished(server, try #require(voidAll["id"] as? String))
            #expect(voidedAll["matched"] as? Int == 3 && voidedAll["changed"] as? Int == 2, "\(voidedAll)")
            let (_, same) = try await Self.campaign(server, #"{"select":{"template":"event-ticket","includeVoided":true},"data":{"fields":{"row":"7"}}}"#)
            #expect(try await Self.finished(server, try #require(same["id"] as? String))["changed"] as? Int == 3)
            let before = try await Self.pass(server, "V-2")["updateTag"] as? String
            let (_, again) = try await Self.campaign(server, #"{"select":{"template":"event-ticket","includeVoided":true},"data":{"fields":{"row":"7"}}}"#)
            let repeated = try await Self.finished(server, try #require(again["id"] as? String))
            #expect(repeated["matched"] as? Int == 3 && repeated["changed"] as? Int == 0, "\(repeated)")
            #expect(try await Self.pass(server, "V-2")["updateTag"] as? String == before)
            let patch = #"{"data":{"fields":{"seat":"12C"}}}"#
            let first = try Server.json(try await server.api("PATCH", "/api/v1/passes/\(Self.passType)/V-3", body: patch).body)
            let second = try await server.api("PATCH", "/api/v1/passes/\(Self.passType)/V-3", body: patch)
            let secondTag = try Server.json(second.body)["updateTag"] as? String
            #expect(second.status == 200 && secondTag == first["updateTag"] as? String, "\(first) \(String(decoding: second.body, as: UTF8.self))")
        }
    }

    @Test("a template whose folder an edit broke: its passes are still voided, unvoided and changed from their versions")
    func brokenTemplateFolder() async throws {
        let templates = try ServeRedemptionTests.templatesFolder()
        try await Server.with(.sqlite, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            for index in 1...2 { try await Self.createPass(server, serial: "B-\(index)") }
            try Data("{ broken".utf8).write(to: templates.appendingPathComponent("event-ticket/pass.json"))
            kill(server.serve.process.processIdentifier, SIGHUP)
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            var created = 0
            repeat {
                try await Task.sleep(for: .milliseconds(200))
                created = try await server.api("POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{}}"#).status
            } while created != 500 && Date() < deadline
            #expect(created == 500)  // a new pass needs the current content

            let (status, voiding) = try await Self.campaign(server, #"{"select":{"template":"event-ticket"},"void":true}"#)
            #expect(status == 202, "\(voiding)")
            let voided = try await Self.finished(server, try #require(voiding["id"] as? String))
            #expect(voided["state"] as? String == "done" && voided["changed"] as? Int == 2, "\(voided)")
            for index in 1...2 { #expect(try await Self.pass(server, "B-\(index)")["voided"] as? Bool == true) }
            let (_, unvoiding) = try await Self.campaign(server, #"{"select":{"template":"event-ticket"},"unvoid":true}"#)
            #expect(try await Self.finished(server, try #require(unvoiding["id"] as? String))["changed"] as? Int == 2)
            let (_, change) = try await Self.campaign(
                server, #"{"select":{"template":"event-ticket","fields":{"seat":"12A"}},"data":{"fields":{"seat":"1A"}}}"#)
            #expect(change["id"] != nil, "\(change)")
            let (badKey, refused) = try await Self.campaign(
                server, #"{"select":{"template":"event-ticket","fields":{"nope":"1"}},"void":true}"#)
            #expect(badKey == 422 && (refused["error"] as? [String: Any])?["field"] as? String == "select.fields.nope", "\(refused)")
            // Republishing needs the current content: the load's error, naming the template.
            let (republish, error) = try await Self.campaign(server, #"{"select":{"template":"event-ticket"},"republishTemplate":true}"#)
            let message = (error["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(republish == 500 && message.contains("template event-ticket cannot be loaded"), "\(error)")
        }
    }

    @Test("a scheduled campaign runs within 2 s of scheduledAt; a cancelled one changes nothing; DELETE twice is 409",
          arguments: [Server.Database.sqlite])
    func scheduleAndCancel(database: Server.Database) async throws {
        try await Server.with(database) { server in
            try await Self.createPass(server, serial: "P-1")
            let tag = try await Self.pass(server, "P-1")["updateTag"] as? String
            let soon = Date().addingTimeInterval(TestTime.seconds(2))
            let at = soon.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            let (status, scheduled) = try await Self.campaign(server, #"""
                {"select":{"template":"event-ticket"},"data":{"fields":{"seat":"2B"}},"scheduledAt":"\#(at)"}
                """#)
            #expect(status == 202, "\(scheduled)")
            #expect(scheduled["state"] as? String == "scheduled")
            let unchanged = try await Self.pass(server, "P-1")["updateTag"] as? String == tag
            if Date() < soon { #expect(unchanged, "changed before its time") }
            let done = try await Self.finished(server, try #require(scheduled["id"] as? String))
            #expect(done["state"] as? String == "done")
            let started = try #require((done["startedAt"] as? String).flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) })
            // Within 2 s of its time (the runner looks every 500 ms); on a loaded machine the bound scales.
            #expect(started >= soon.addingTimeInterval(-0.001) && started < soon.addingTimeInterval(TestTime.seconds(2)),
                    "started \(started), due \(soon)")

            let later = Date().addingTimeInterval(3600).formatted(Date.ISO8601FormatStyle())
            let (_, pending) = try await Self.campaign(server, #"""
                {"select":{"template":"event-ticket"},"void":true,"scheduledAt":"\#(later)"}
                """#)
            let id = try #require(pending["id"] as? String)
            let cancelled = try await server.api("DELETE", "/api/v1/campaigns/\(id)")
            #expect(cancelled.status == 200)
            let json = try Server.json(cancelled.body)
            #expect(json["state"] as? String == "cancelled")
            #expect(json["changed"] as? Int == 0)
            #expect(try await server.api("DELETE", "/api/v1/campaigns/\(id)").status == 409)
            #expect(try await server.api("DELETE", "/api/v1/campaigns/nope").status == 404)
            #expect(try await Self.pass(server, "P-1")["voided"] as? Bool == false)

            let listed = try Server.json(try await server.api("GET", "/api/v1/campaigns?state=cancelled").body)
            #expect((listed["campaigns"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            let page = try Server.json(try await server.api("GET", "/api/v1/campaigns?limit=1").body)
            #expect((page["campaigns"] as? [Any])?.count == 1)
            let cursor = try #require(page["nextCursor"] as? String)
            let next = try Server.json(try await server.api("GET", "/api/v1/campaigns?limit=1&cursor=\(cursor)").body)
            #expect((next["campaigns"] as? [[String: Any]])?.first?["id"] as? String != id)
        }
    }

    @Test("an Idempotency-Key returns the same campaign for the same body and 409 for another",
          arguments: [Server.Database.sqlite])
    func idempotency(database: Server.Database) async throws {
        try await Server.with(database) { server in
            try await Self.createPass(server, serial: "I-1")
            let body = #"{"select":{"template":"event-ticket"},"data":{"fields":{"seat":"3C"}}}"#
            let first = try await Self.campaign(server, body, key: "move-2026-12-31")
            let again = try await Self.campaign(server, body, key: "move-2026-12-31")
            #expect(first.status == 202 && again.status == 202)
            #expect(first.json["id"] as? String == again.json["id"] as? String)
            let other = try await Self.campaign(server, #"{"select":{"template":"event-ticket"},"void":true}"#, key: "move-2026-12-31")
            #expect(other.status == 409, "\(other.json)")
            let listed = try Server.json(try await server.api("GET", "/api/v1/campaigns").body)
            #expect((listed["campaigns"] as? [Any])?.count == 1)
        }
    }

    @Test("bad campaigns are refused naming the member, before anything changes", arguments: [Server.Database.sqlite])
    func refusals(database: Server.Database) async throws {
        try await Server.with(database) { server in
            try await Self.createPass(server, serial: "R-1")
            let tag = try await Self.pass(server, "R-1")["updateTag"] as? String
            let past = Date().addingTimeInterval(-3600).formatted(Date.ISO8601FormatStyle())
            let cases: [(String, String)] = [
                (#"{"data":{"fields":{"seat":"1"}}}"#, "select"),
                (#"{"select":{"template":"nope"},"void":true}"#, "select.template"),
                (#"{"select":{"template":"event-ticket","fields":{"nope":"x"}},"void":true}"#, "select.fields.nope"),
                (#"{"select":{"template":"event-ticket"},"data":{"fields":{"nope":"x"}}}"#, "data"),
                (#"{"select":{"template":"event-ticket"},"data":{"fields":{"seat":"1"}},"void":true}"#, "void"),
                (#"{"select":{"template":"event-ticket"}}"#, "data"),
                (#"{"select":{"template":"event-ticket"},"void":false}"#, "void"),
                (#"{"select":{"template":"event-ticket"},"void":true,"scheduledAt":"\#(past)"}"#, "scheduledAt"),
                (#"{"select":{"template":"event-ticket"},"void":true,"scheduledAt":"tomorrow"}"#, "scheduledAt"),
                (#"{"select":{"template":"event-ticket"},"void":true,"message":""}"#, "message"),
                (#"{"select":{"passTypeIdentifier":"\#(Self.passType)","serialNumbers":[]},"void":true}"#, "select.serialNumbers"),
                (#"{"select":{"passTypeIdentifier":"\#(Self.passType)","serialNumbers":["../x"]},"void":true}"#, "select.serialNumbers[0]"),
                (#"{"select":{"template":"event-ticket"},"data":{"serialNumber":"X"}}"#, "data.serialNumber"),
                (#"{"select":{"template":"event-ticket"},"void":true,"extra":1}"#, "extra"),
                (#"[1]"#, "body"),
            ]
            for (body, field) in cases {
                let (status, answer) = try await Self.campaign(server, body)
                // A body that is not an object is a malformed request (400), as on the rest of the issuer API.
                #expect(status == (field == "body" ? 400 : 422), "\(body) → \(status) \(answer)")
                let error = answer["error"] as? [String: Any]
                let named = error?["field"] as? String ?? ""
                #expect(named == field || named.hasPrefix(field + "."), "\(body) → \(answer)")
            }
            let unauthorised = try await server.send("POST", "/api/v1/campaigns", body: #"{"select":{"template":"event-ticket"},"void":true}"#)
            #expect(unauthorised.status == 401)
            let listed = try Server.json(try await server.api("GET", "/api/v1/campaigns").body)
            #expect((listed["campaigns"] as? [Any])?.isEmpty == true)
            #expect(try await Self.pass(server, "R-1")["updateTag"] as? String == tag)
        }
    }
}

/// Reads a campaign with `read` until its state is final (`done`, `cancelled`, `failed`) or `seconds` have passed, and
/// returns the last reading.
func campaignWhenFinished(
    within seconds: Double, _ read: () async throws -> [String: Any]
) async throws -> [String: Any] {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        let json = try await read()
        if ["done", "cancelled", "failed"].contains(json["state"] as? String ?? "") || Date() > deadline { return json }
        try await Task.sleep(for: .milliseconds(100))
    }
}
