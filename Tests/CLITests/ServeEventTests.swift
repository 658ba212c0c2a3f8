import Foundation
import Testing
import TesseraTestSupport

/// The event log over HTTP against `tessera serve`: what the device protocol, the issuer API and a campaign record,
/// read with `GET /api/v1/events` in pages after a cursor, filtered by type, and the queries it refuses.
@Suite("tessera serve events")
struct ServeEventTests {
    typealias Server = OrdersServer
    static let passType = OrdersServer.passType

    /// Every event after `cursor`, in pages of `limit`; the cursor each page ended on.
    static func events(_ server: Server, query: String = "", limit: Int = 100, after cursor: String? = nil)
        async throws -> (events: [[String: Any]], cursor: String)
    {
        var cursor = cursor
        var all: [[String: Any]] = []
        while true {
            var path = "/api/v1/events?limit=\(limit)" + (query.isEmpty ? "" : "&" + query)
            if let cursor { path += "&after=\(cursor)" }
            let answer = try await server.api("GET", path)
            try #require(answer.status == 200, "\(answer.head)\(String(decoding: answer.body, as: UTF8.self))")
            let page = try Server.json(answer.body)
            let next = try #require(page["nextCursor"] as? String, "nextCursor is always present")
            let events = try #require(page["events"] as? [[String: Any]])
            if events.isEmpty {
                #expect(cursor == nil || next == cursor, "an empty page keeps the cursor")
                return (all, next)
            }
            all += events
            cursor = next
        }
    }

    static func types(_ events: [[String: Any]]) -> [String] { events.compactMap { $0["type"] as? String } }

    @Test("device, issuer and campaign changes are recorded, in order, and read in pages", arguments: Server.Database.tested)
    func recorded(database: Server.Database) async throws {
        try await Server.with(database) { server in
            let token = try await ServeCampaignTests.createPass(server, serial: "EV-1")
            try await ServeCampaignTests.createPass(server, serial: "EV-2")
            try await ServeCampaignTests.register(server, device: 1, serial: "EV-1", token: token)
            let again = try await server.send(
                "POST", "/v1/devices/device-1/registrations/\(Self.passType)/EV-1",
                headers: ["Authorization: ApplePass \(token)"], body: #"{"pushToken":"\#(ServeCampaignTests.pushToken(1))"}"#)
            #expect(again.status == 200)
            let patched = try await server.api("PATCH", "/api/v1/passes/\(Self.passType)/EV-1",
                                               body: #"{"data":{"fields":{"seat":"12A"}}}"#)
            #expect(patched.status == 200, "\(String(decoding: patched.body, as: UTF8.self))")
            #expect(try await server.api("DELETE", "/api/v1/passes/\(Self.passType)/EV-1").status == 200)
            let removed = try await server.send(
                "DELETE", "/v1/devices/device-1/registrations/\(Self.passType)/EV-1",
                headers: ["Authorization: ApplePass \(token)"])
            #expect(removed.status == 200)
            let (status, accepted) = try await ServeCampaignTests.campaign(
                server, #"{"select":{"serialNumbers":["EV-2"],"passTypeIdentifier":"\#(Self.passType)"},"void":true}"#)
            #expect(status == 202, "\(accepted)")
            let campaign = try #require(accepted["id"] as? String)
            _ = try await ServeCampaignTests.finished(server, campaign)

            // Events become readable once every older transaction has ended: read until the campaign's end shows.
            var (all, cursor) = try await Self.events(server)
            let deadline = Date().addingTimeInterval(TestTime.seconds(30))
            while !Self.types(all).contains("campaign.finished"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
                let more = try await Self.events(server, after: cursor)
                all += more.events
                cursor = more.cursor
            }
            #expect(Self.types(all) == [
                "pass.created", "pass.created",
                "pass.registered", "pass.updated", "pass.updated", "pass.voided", "pass.unregistered",
                "pass.updated", "pass.voided", "campaign.finished",
            ])
            #expect((all[0]["data"] as? [String: Any])?["serialNumber"] as? String == "EV-1")
            // The events after the two creations.
            let whole = all
            all.removeFirst(2)
            let first = all[0]
            #expect(Set(first.keys) == ["id", "type", "createdAt", "data"])
            #expect((first["id"] as? String).flatMap(Int64.init) != nil)
            #expect((first["createdAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil)
            let data = try #require(first["data"] as? [String: Any])
            #expect(data["passTypeIdentifier"] as? String == Self.passType && data["serialNumber"] as? String == "EV-1")
            let device = try #require(data["device"] as? String)
            #expect(device.count == 32 && !device.contains("device-1"))
            let text = all.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined()
            #expect(!text.contains(ServeCampaignTests.pushToken(1)) && !text.contains("device-1"))
            #expect((all[1]["data"] as? [String: Any])?["changed"] as? [String] == ["data"])
            #expect((all[5]["data"] as? [String: Any])?["campaign"] as? String == campaign)
            #expect((all[7]["data"] as? [String: Any])?["state"] as? String == "done")

            // Pages of two give the same events; a type filter keeps its types; the last cursor gives nothing new.
            let paged = try await Self.events(server, limit: 2)
            #expect(paged.events.compactMap { $0["id"] as? String } == whole.compactMap { $0["id"] as? String })
            let filtered = try await Self.events(server, query: "type=pass.voided,campaign.finished")
            #expect(Self.types(filtered.events) == ["pass.voided", "pass.voided", "campaign.finished"])
            let repeated = try await Self.events(server, query: "type=pass.registered&type=pass.unregistered")
            #expect(Self.types(repeated.events) == ["pass.registered", "pass.unregistered"])
            let tail = try await Self.events(server, after: cursor)
            #expect(tail.events.isEmpty && tail.cursor == cursor)
        }
    }

    @Test("malformed cursors, unknown types and huge limits are 400s naming the parameter; no token is 401")
    func refusals() async throws {
        try await Server.with(.sqlite) { server in
            for (query, field) in [
                ("after=abc", "after"), ("after=-1", "after"), ("after=1.2.3", "after"),
                ("after=99999999999999999999", "after"), ("type=pass.exploded", "type"), ("type=", "type"),
                ("limit=5000", "limit"), ("limit=0", "limit"), ("limit=ten", "limit"),
                ("aftr=5", "aftr"), ("after=5&after=7", "after"), ("limit=5&limit=6", "limit"),
                // The end of the log's empty page takes no wrong parameter either.
                ("after=latest&limit=1722", "limit"), ("after=latest&type=pass.exploded", "type"),
            ] {
                let answer = try await server.api("GET", "/api/v1/events?\(query)")
                #expect(answer.status == 400, "\(query): \(answer.head)")
                let error = try Server.json(answer.body)["error"] as? [String: Any]
                #expect(error?["field"] as? String == field, "\(query): \(String(decoding: answer.body, as: UTF8.self))")
                #expect((error?["message"] as? String)?.hasPrefix("\(field):") == true)
            }
            #expect(try await server.send("GET", "/api/v1/events").status == 401)
            let empty = try await server.api("GET", "/api/v1/events?limit=1000")
            #expect(empty.status == 200)
            let page = try Server.json(empty.body)
            #expect((page["events"] as? [Any])?.isEmpty == true && page["nextCursor"] as? String == "0")
            // A pass's history takes only a limit: a client paging it with `after` is told, not given page one again.
            let pass = try Server.json(try await server.api(
                "POST", "/api/v1/passes", body: #"{"template":"event-ticket","data":{"serialNumber":"H-1"}}"#).body)
            let history = "/api/v1/passes/\(pass["passTypeIdentifier"] as? String ?? "")/H-1/events"
            #expect(try await server.api("GET", "\(history)?limit=5").status == 200)
            for (query, field) in [("after=123&limt=5", "after"), ("limt=5", "limt"), ("limit=5&limit=6", "limit")] {
                let answer = try await server.api("GET", "\(history)?\(query)")
                let error = try Server.json(answer.body)["error"] as? [String: Any]
                #expect(answer.status == 400 && error?["field"] as? String == field, "\(query): \(answer.head)")
            }
        }
    }
}
