import Foundation
import Testing
import TesseraTestSupport

/// Redemption at the gate over HTTP against `tessera serve`: scans by barcode message and by identifiers, the
/// template's rule from its `.tessera.json`, voiding a used-up pass on the holder's device, idempotent repeats,
/// concurrent scans on one and two server processes, and the requests refused.
@Suite("tessera serve redemptions")
struct ServeRedemptionTests {
    typealias Server = OrdersServer
    static let passType = OrdersServer.passType

    /// The shipped event ticket (once, the default), and a copy named `multi-entry` counting three entries and voiding
    /// the ticket on the third.
    static func templatesFolder() throws -> URL {
        let templates = try TemporaryDirectory.make(prefix: "redemption-templates")
        let ticket = Subprocess.repositoryRoot.appendingPathComponent("PassTemplates/event-ticket")
        try FileManager.default.copyItem(at: ticket, to: templates.appendingPathComponent("event-ticket"))
        let multi = templates.appendingPathComponent("multi-entry")
        try FileManager.default.copyItem(at: ticket, to: multi)
        try Data(#"{"redemption": {"rule": "count", "limit": 3, "voidWhenRedeemed": true}}"#.utf8)
            .write(to: multi.appendingPathComponent(".tessera.json"))
        return templates
    }

    static func create(_ server: Server, template: String = "event-ticket", serial: String, barcode: String? = nil,
                       expires: String = "2036-01-01T00:00Z") async throws -> String {
        var data = #""serialNumber":"\#(serial)","expirationDate":"\#(expires)""#
        if let barcode { data += #","barcodeMessage":"\#(barcode)""# }
        let created = try await server.api("POST", "/api/v1/passes", body: #"{"template":"\#(template)","data":{\#(data)}}"#)
        try #require(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        return try #require(try Server.json(created.body)["authenticationToken"] as? String)
    }

    static func scan(_ server: Server, _ body: String, key: String? = nil) async throws -> (status: Int, json: [String: Any]) {
        let answer = try await server.send(
            "POST", "/api/v1/redemptions",
            headers: ["Authorization: Bearer \(ServeProcess.adminToken)"] + (key.map { ["Idempotency-Key: \($0)"] } ?? []),
            body: body)
        let json = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:]
        return (answer.status, json)
    }

    @Test("a pass whose template folder was removed is still scanned (once, as its stored version), not refused as 422")
    func removedTemplateFolder() async throws {
        let templates = try Self.templatesFolder()
        try await Server.with(.sqlite, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            try await Self.create(server, serial: "GONE-1", barcode: "GATE-GONE-1")
            try FileManager.default.removeItem(at: templates.appendingPathComponent("event-ticket"))
            kill(server.serve.process.processIdentifier, SIGHUP)
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            var created = 0
            repeat {
                try await Task.sleep(for: .milliseconds(200))
                created = try await server.api("POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{}}"#).status
            } while created != 422 && Date() < deadline
            try #require(created == 422, "the removal was not seen")

            let first = try await Self.scan(server, #"{"barcodeMessage":"GATE-GONE-1","place":"North gate"}"#)
            #expect(first.status == 200 && first.json["result"] as? String == "valid", "\(first.json)")
            #expect(first.json["limit"] as? Int == 1)
            let second = try await Self.scan(server, #"{"passTypeIdentifier":"pass.dev.tessera.demo","serialNumber":"GONE-1"}"#)
            #expect(second.status == 200 && second.json["result"] as? String == "alreadyRedeemed", "\(second.json)")
        }
    }

    @Test("scans by barcode and by identifiers follow the template's rule; the last entry voids the ticket on the device",
          arguments: Server.Database.tested)
    func rules(database: Server.Database) async throws {
        let templates = try Self.templatesFolder()
        try await Server.with(database, arguments: ["--templates", templates.path]) { server in
            try await Self.create(server, serial: "T-1", barcode: "GATE-T-1")
            try await Self.create(server, serial: "T-OLD", barcode: "GATE-OLD", expires: "2020-01-01T00:00Z")
            let token = try await Self.create(server, template: "multi-entry", serial: "M-1")
            try await ServeCampaignTests.register(server, device: 1, serial: "M-1", token: token)

            let first = try await Self.scan(server, #"{"barcodeMessage":"GATE-T-1","place":"North gate"}"#)
            #expect(first.status == 200 && first.json["result"] as? String == "valid", "\(first.json)")
            #expect((first.json["pass"] as? [String: Any])?["serialNumber"] as? String == "T-1")
            #expect(first.json["place"] as? String == "North gate" && first.json["redemptions"] as? Int == 1)
            #expect(first.json["limit"] as? Int == 1)
            let redeemedAt = try #require(first.json["redeemedAt"] as? String)
            #expect(RFC3339Check.isValid(redeemedAt))

            let second = try await Self.scan(server, #"{"barcodeMessage":"GATE-T-1","place":"South gate"}"#)
            #expect(second.json["result"] as? String == "alreadyRedeemed", "\(second.json)")
            #expect(second.json["redeemedAt"] as? String == redeemedAt && second.json["place"] as? String == "North gate")
            let firstRedemption = second.json["firstRedemption"] as? [String: Any]
            #expect(firstRedemption?["place"] as? String == "North gate")

            let unknown = try await Self.scan(server, #"{"barcodeMessage":"GATE-NOBODY","place":"North gate"}"#)
            #expect(unknown.status == 200 && unknown.json["result"] as? String == "unknown", "\(unknown.json)")
            #expect(unknown.json["pass"] is NSNull && unknown.json["redeemedAt"] is NSNull)
            // A NUL in a barcode: refused in a pass's data (422 naming it), unknown at the gate, on either store.
            let withNUL = try await server.api(
                "POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{"serialNumber":"T-NUL","barcodeMessage":"A\u0000B"}}"#)
            let refusal = String(decoding: withNUL.body, as: UTF8.self)
            #expect(withNUL.status == 422 && refusal.contains("data.barcodeMessage") && refusal.contains("NUL"), "\(refusal)")
            let scannedNUL = try await Self.scan(server, #"{"barcodeMessage":"A\u0000B"}"#)
            #expect(scannedNUL.status == 200 && scannedNUL.json["result"] as? String == "unknown", "\(scannedNUL.json)")
            let expired = try await Self.scan(server, #"{"barcodeMessage":"GATE-OLD"}"#)
            #expect(expired.json["result"] as? String == "expired", "\(expired.json)")

            let byKey = #"{"passTypeIdentifier":"\#(Self.passType)","serialNumber":"M-1","place":"Turnstile 4"}"#
            var results: [String] = []
            var last: [String: Any] = [:]
            for _ in 0..<4 {
                let answer = try await Self.scan(server, byKey)
                results.append(answer.json["result"] as? String ?? "\(answer.status)")
                if answer.json["result"] as? String == "valid" { last = answer.json }
            }
            #expect(results == ["valid", "valid", "valid", "alreadyRedeemed"])
            #expect(last["redemptions"] as? Int == 3 && last["limit"] as? Int == 3)
            #expect((last["pass"] as? [String: Any])?["voided"] as? Bool == true, "\(last)")

            // The voided version reaches the holder: a push, the pass in the device's list, voided in what it fetches.
            let pushes = try await server.apns.requests(topic: Self.passType, within: TestTime.seconds(30)) { !$0.isEmpty }
            #expect(pushes.count == 1)
            let listed = try await server.send("GET", "/v1/devices/device-1/registrations/\(Self.passType)")
            #expect(listed.status == 200 && String(decoding: listed.body, as: UTF8.self).contains("M-1"))
            let fetched = try await server.send(
                "GET", "/v1/passes/\(Self.passType)/M-1", headers: ["Authorization: ApplePass \(token)"])
            #expect(try await ServeCampaignTests.passJSON(in: fetched.body, server: server)["voided"] as? Bool == true)

            let state = try await ServeCampaignTests.pass(server, "T-1")
            #expect(state["redemptions"] as? Int == 1 && state["redeemedAt"] as? String == redeemedAt)

            var events: [[String: Any]] = []
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            while events.count < 4, Date() < deadline {
                events = try await ServeEventTests.events(server, query: "type=pass.redeemed").events
                if events.count < 4 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(events.count == 4, "one pass.redeemed per valid scan")
            let data = events.first?["data"] as? [String: Any]
            #expect(data?["serialNumber"] as? String == "T-1" && data?["place"] as? String == "North gate")
        }
    }

    @Test("an edited .tessera.json applies from the next scan after the server reads the templates again (SIGHUP)")
    func editedRule() async throws {
        let templates = try Self.templatesFolder()
        try await Server.with(.sqlite, arguments: ["--templates", templates.path, "--template-poll-interval", "0"]) { server in
            try await Self.create(server, serial: "E-1", barcode: "GATE-E-1")
            let body = #"{"barcodeMessage":"GATE-E-1"}"#
            #expect(try await Self.scan(server, body).json["result"] as? String == "valid")
            #expect(try await Self.scan(server, body).json["result"] as? String == "alreadyRedeemed")
            try Data(#"{"redemption": {"rule": "count", "limit": 2}}"#.utf8)
                .write(to: templates.appendingPathComponent("event-ticket/.tessera.json"))
            kill(server.serve.process.processIdentifier, SIGHUP)
            var second: [String: Any] = [:]
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            while second["result"] as? String != "valid", Date() < deadline {
                try await Task.sleep(for: .milliseconds(200))
                second = try await Self.scan(server, body).json
            }
            #expect(second["result"] as? String == "valid" && second["redemptions"] as? Int == 2 && second["limit"] as? Int == 2)
            #expect(try await Self.scan(server, body).json["result"] as? String == "alreadyRedeemed")
            // A broken file is the template's error (the server's configuration, not the scanner's request).
            try Data(#"{"redemption": {"rule": "sometimes"}}"#.utf8)
                .write(to: templates.appendingPathComponent("event-ticket/.tessera.json"))
            kill(server.serve.process.processIdentifier, SIGHUP)
            var broken = (status: 0, json: [String: Any]())
            while broken.status != 500, Date() < deadline {
                try await Task.sleep(for: .milliseconds(200))
                broken = try await Self.scan(server, body)
            }
            let message = (broken.json["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(broken.status == 500 && message.contains(".tessera.json: redemption.rule"), "\(broken.json)")
        }
    }

    @Test("a repeated Idempotency-Key is answered as the first scan; another body with it is 409")
    func idempotency() async throws {
        try await Server.with(.sqlite) { server in
            try await Self.create(server, serial: "K-1", barcode: "GATE-K-1")
            let body = #"{"barcodeMessage":"GATE-K-1","place":"Gate 2"}"#
            let first = try await Self.scan(server, body, key: "scanner-7-0001")
            let again = try await Self.scan(server, body, key: "scanner-7-0001")
            #expect(first.json["result"] as? String == "valid" && first.json["replayed"] as? Bool == false)
            #expect(again.json["result"] as? String == "valid" && again.json["replayed"] as? Bool == true, "\(again.json)")
            #expect(again.json["redemptions"] as? Int == 1 && again.json["scannedAt"] as? String == first.json["scannedAt"] as? String)
            let other = try await Self.scan(server, #"{"barcodeMessage":"GATE-K-1","place":"Gate 3"}"#, key: "scanner-7-0001")
            #expect(other.status == 409, "\(other.json)")
            #expect(try await Self.scan(server, body).json["result"] as? String == "alreadyRedeemed")

            // A repeat after another pass took the same message is still the first answer, not "several passes".
            _ = try await Self.create(server, serial: "K-2", barcode: "GATE-K-1")
            #expect(try await Self.scan(server, body).status == 409)
            let late = try await Self.scan(server, body, key: "scanner-7-0001")
            #expect(late.status == 200 && late.json["replayed"] as? Bool == true, "\(late.json)")
            #expect(late.json["serialNumber"] as? String == "K-1" || (late.json["pass"] as? [String: Any])?["serialNumber"]
                as? String == "K-1", "\(late.json)")
        }
    }

    @Test("32 gates scanning one ticket at once get exactly one valid, on one process or two sharing PostgreSQL",
          arguments: Server.Database.tested)
    func race(database: Server.Database) async throws {
        try await Server.with(database, processes: database == .postgres ? 2 : 1) { servers in
            try await Self.create(servers[0], serial: "RACE-1", barcode: "GATE-RACE-1")
            let results = try await withThrowingTaskGroup(of: String.self) { group in
                for gate in 0..<32 {
                    group.addTask {
                        let answer = try await Self.scan(
                            servers[gate % servers.count], #"{"barcodeMessage":"GATE-RACE-1","place":"Gate \#(gate)"}"#)
                        return answer.json["result"] as? String ?? "status \(answer.status)"
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(results.filter { $0 == "valid" }.count == 1, "\(results)")
            #expect(results.filter { $0 == "alreadyRedeemed" }.count == 31, "\(results)")
        }
    }

    @Test("malformed scans are 4xx naming the member; a message several passes carry is 409; no token is 401")
    func refusals() async throws {
        try await Server.with(.sqlite) { server in
            try await Self.create(server, serial: "S-1", barcode: "SHARED")
            try await Self.create(server, serial: "S-2", barcode: "SHARED")
            let long = String(repeating: "x", count: 201)
            for (body, field) in [
                (#"{"barcodeMessage":"A","colour":"red"}"#, "colour"),
                (#"{"barcodeMessage":12}"#, "barcodeMessage"),
                (#"{"barcodeMessage":""}"#, "barcodeMessage"),
                (#"{}"#, "barcodeMessage"),
                (#"{"barcodeMessage":"A","serialNumber":"S-1"}"#, "barcodeMessage"),
                (#"{"serialNumber":"S-1"}"#, "passTypeIdentifier"),
                (#"{"barcodeMessage":"A","place":"\#(long)"}"#, "place"),
                (#"["barcodeMessage"]"#, "body"),
            ] {
                let answer = try await Self.scan(server, body)
                #expect((400..<500).contains(answer.status), "\(body): \(answer.status)")
                let error = answer.json["error"] as? [String: Any]
                #expect(error?["field"] as? String == field, "\(body): \(answer.json)")
            }
            let shared = try await Self.scan(server, #"{"barcodeMessage":"SHARED"}"#)
            #expect(shared.status == 409 && (shared.json["error"] as? [String: Any])?["field"] as? String == "barcodeMessage")
            #expect(try await Self.scan(server, #"{"barcodeMessage":"A"}"#, key: "has space").status == 400)
            let anonymous = try await server.send("POST", "/api/v1/redemptions", body: #"{"barcodeMessage":"SHARED"}"#)
            #expect(anonymous.status == 401)
            // Nothing was counted by the refused scans.
            #expect(try await ServeCampaignTests.pass(server, "S-1")["redemptions"] as? Int == 0)
            // A GS1 message separates its elements with GS (U+001D): the pass keeps it, and the scanner sends it back.
            let gs1 = #"0109506000134352\u001d17261231"#
            try await Self.create(server, serial: "G-1", barcode: gs1)
            let scanned = try await Self.scan(server, #"{"barcodeMessage":"\#(gs1)"}"#)
            #expect(scanned.status == 200 && scanned.json["result"] as? String == "valid", "\(scanned.json)")
            #expect((scanned.json["pass"] as? [String: Any])?["serialNumber"] as? String == "G-1")
        }
    }
}

/// RFC 3339 as the API writes times.
enum RFC3339Check {
    static func isValid(_ text: String) -> Bool {
        (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) != nil
    }
}
