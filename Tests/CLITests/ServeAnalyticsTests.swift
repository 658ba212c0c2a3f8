import Foundation
import Testing
import TesseraTestSupport

/// Install analytics over HTTP against `tessera serve`: the counts equal the registrations, removals, changes, fetches
/// and pushes the test made; the active gauges in `/metrics`; the queries refused.
@Suite("tessera serve analytics")
struct ServeAnalyticsTests {
    typealias Server = OrdersServer
    static let passType = OrdersServer.passType

    /// Whether a metrics line's value is 2 (`2` or `2.0`).
    static func isTwo(_ line: Substring?) -> Bool {
        line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } == 2
    }

    static func report(_ server: Server, _ query: String) async throws -> [String: Any] {
        let answer = try await server.api("GET", "/api/v1/analytics/passes?\(query)")
        try #require(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return try Server.json(answer.body)
    }

    @Test("counts equal the registrations, removals, changes, fetches and pushes made", arguments: Server.Database.tested)
    func counts(database: Server.Database) async throws {
        try await Server.with(database) { server in
            var tokens: [String: String] = [:]
            for serial in ["AN-1", "AN-2", "AN-3"] {
                tokens[serial] = try await ServeCampaignTests.createPass(server, serial: serial)
            }
            try await ServeCampaignTests.createPass(server, template: "coupon", serial: "CP-1")
            // Devices 1 and 2 add AN-1, device 1 adds AN-2 too, device 3 adds AN-3 and then removes it.
            for (device, serial) in [(1, "AN-1"), (2, "AN-1"), (1, "AN-2"), (3, "AN-3")] {
                try await ServeCampaignTests.register(server, device: device, serial: serial, token: tokens[serial] ?? "")
            }
            let removed = try await server.send("DELETE", "/v1/devices/device-3/registrations/\(Self.passType)/AN-3",
                                                headers: ["Authorization: ApplePass \(tokens["AN-3"] ?? "")"])
            #expect(removed.status == 200)
            let patched = try await server.api("PATCH", "/api/v1/passes/\(Self.passType)/AN-1",
                                               body: #"{"data":{"fields":{"seat":"2B"}}}"#)
            #expect(patched.status == 200)
            let pushes = try await server.apns.requests(topic: Self.passType, within: TestTime.seconds(30)) { $0.count >= 2 }
            #expect(pushes.count == 2, "one push per device of AN-1")
            for _ in 0..<3 {
                let fetched = try await server.send("GET", "/v1/passes/\(Self.passType)/AN-1",
                                                    headers: ["Authorization: ApplePass \(tokens["AN-1"] ?? "")"])
                #expect(fetched.status == 200)
            }

            var totals: [String: Any] = [:]
            let deadline = Date().addingTimeInterval(TestTime.seconds(60))
            let expected: [String: Int] = [
                "installs": 4, "removals": 1, "activeDevices": 2, "activePasses": 2, "updates": 1, "pushesSent": 2,
                "fetches": 3,
            ]
            while Date() < deadline {
                totals = try await Self.report(server, "template=event-ticket&interval=hour")["totals"] as? [String: Any] ?? [:]
                if expected.allSatisfy({ totals[$0.key] as? Int == $0.value }) { break }
                try await Task.sleep(for: .milliseconds(250))
            }
            for (name, value) in expected { #expect(totals[name] as? Int == value, "\(name): \(totals)") }

            let byDay = try await Self.report(server, "passTypeIdentifier=\(Self.passType)&interval=day")
            let buckets = try #require(byDay["buckets"] as? [[String: Any]])
            #expect(buckets.count >= 30 && buckets.count <= 31, "the last 30 days by default")
            #expect(buckets.last?["activeDevices"] as? Int == 2 && buckets.last?["installs"] as? Int == 4)
            #expect((buckets.first?["start"] as? String)?.hasSuffix("T00:00:00Z") == true)
            let weeks = try await Self.report(server, "interval=week&from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z")
            let weekStart = (weeks["buckets"] as? [[String: Any]])?.first?["start"] as? String
            #expect(weekStart == "2025-12-29T00:00:00Z", "weeks start on Monday")
            let coupon = try await Self.report(server, "template=coupon")["totals"] as? [String: Any]
            #expect(coupon?["installs"] as? Int == 0 && coupon?["fetches"] as? Int == 0)

            // The gauges are read from the rollups every few rounds.
            var gauge: Substring?
            let gaugeDeadline = Date().addingTimeInterval(TestTime.seconds(60))
            while !Self.isTwo(gauge), Date() < gaugeDeadline {
                let metrics = String(decoding: try await server.send("GET", "/metrics").body, as: UTF8.self)
                gauge = metrics.split(separator: "\n").first {
                    $0.hasPrefix("tessera_active_devices") && $0.contains("template=\"event-ticket\"")
                }
                if !Self.isTwo(gauge) { try await Task.sleep(for: .milliseconds(500)) }
            }
            #expect(Self.isTwo(gauge), "\(gauge ?? "no tessera_active_devices gauge")")
        }
    }

    @Test("malformed queries are 400s naming the parameter")
    func refusals() async throws {
        try await Server.with(.sqlite) { server in
            for (query, field) in [
                ("interval=month", "interval"), ("from=yesterday", "from"), ("to=2026-13-01T00:00:00Z", "to"),
                ("from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "from"), ("template=../x", "template"),
                ("interval=hour&from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", "interval"), ("colour=red", "colour"),
            ] {
                let answer = try await server.api("GET", "/api/v1/analytics/passes?\(query)")
                #expect(answer.status == 400, "\(query): \(answer.head)")
                let error = try Server.json(answer.body)["error"] as? [String: Any]
                #expect(error?["field"] as? String == field, "\(query): \(String(decoding: answer.body, as: UTF8.self))")
            }
            #expect(try await server.send("GET", "/api/v1/analytics/passes").status == 401)
        }
    }
}
