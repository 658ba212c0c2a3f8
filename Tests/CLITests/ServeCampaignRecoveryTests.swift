import Foundation
import Logging
import PassStore
import PostgresNIO
import PostgresStore
import SQLiteStore
import Testing
import TesseraTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Campaigns that outlive a process: `kill -9` in the middle and a restart (every pass changed exactly once, every
/// device pushed), and two `tessera serve` processes on one PostgreSQL database working on one campaign.
@Suite("tessera serve campaigns across processes", .serialized)
struct ServeCampaignRecoveryTests {
    typealias Server = OrdersServer
    static let passType = OrdersServer.passType

    /// The update tag of a sentinel pass changed now: update tags come from one counter, each new version takes the
    /// next one, so the difference of two sentinels' tags is the number of versions made between them, plus one.
    static func sentinelTag(_ serve: ServeProcess, serial: String) async throws -> Int {
        let body = #"{"data":{"fields":{"seat":"\#(UUID().uuidString.prefix(8))"}}}"#
        let answer = try #require(try await serve.request(
            "PATCH /api/v1/passes/\(passType)/\(serial) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
            timeout: 30))
        try #require(answer.status == 200, "\(answer.head)")
        let json = try Server.json(answer.body)
        return try #require(Int(json["updateTag"] as? String ?? ""))
    }

    static func campaign(_ serve: ServeProcess, _ id: String) async throws -> [String: Any] {
        let answer = try #require(try await serve.request(
            "GET /api/v1/campaigns/\(id) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\nConnection: close\r\n\r\n",
            timeout: 30))
        return try Server.json(answer.body)
    }

    static func start(_ serve: ServeProcess, _ body: String) async throws -> String {
        let answer = try #require(try await serve.request(
            "POST /api/v1/campaigns HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
            timeout: 30))
        try #require(answer.status == 202, "\(String(decoding: answer.body, as: UTF8.self))")
        return try #require(try Server.json(answer.body)["id"] as? String)
    }

    static func finished(_ serve: ServeProcess, _ id: String) async throws -> [String: Any] {
        try await campaignWhenFinished(within: TestTime.seconds(90)) { try await campaign(serve, id) }
    }

    /// The distinct push tokens the stand-in got for the pass type, waiting up to a minute for `count` of them.
    static func pushedTokens(_ apns: APNsStandIn, count: Int) async throws -> Set<String> {
        Set(try await apns.requests(topic: Self.passType, within: TestTime.seconds(60)) {
            Set($0.compactMap(\.pushToken)).count >= count
        }.compactMap(\.pushToken))
    }

    @Test("kill -9 in the middle of a campaign, then a restart: every pass changed exactly once, every device pushed")
    func killedAndRestarted() async throws {
        let passCount = 3_000
        let deviceCount = 750
        try await Server.with(.sqlite, arguments: ["--campaign-batch-size", "10"]) { server in
            // Seeded beside the running server (WAL: its own writer waits its turn): 3,000 tickets, 750 devices holding 4.
            let store = try SQLiteStore(path: server.serve.folder.appendingPathComponent("data/tessera.sqlite").path)
            let passes = (0..<passCount).map { index in
                NewPass(
                    passTypeIdentifier: Self.passType, serialNumber: String(format: "KR-%05d", index),
                    authenticationToken: String(repeating: "a", count: 24) + String(format: "%08d", index), template: "event-ticket",
                    data: Data(#"{"serialNumber":"\#(String(format: "KR-%05d", index))"}"#.utf8),
                    downloadToken: String(format: "download-token-%026d", index))
            }
            let registrations = (0..<passCount).map { index in
                DeviceRegistration(
                    deviceLibraryIdentifier: "device-\(index % deviceCount)", pushToken: String(format: "%064x", 0xBEEF0000 + index % deviceCount),
                    passTypeIdentifier: Self.passType, serialNumber: String(format: "KR-%05d", index))
            }
            try await store.bulkLoad(passes: passes, registrations: registrations, now: Date())
            let before = try await Self.sentinelTag(server.serve, serial: "KR-00000")

            let id = try await Self.start(server.serve, #"""
                {"select":{"template":"event-ticket"},"data":{"fields":{"row":"R"}},"message":"Your row changed"}
                """#)
            // Killed once some batches are written and before the last.
            var progress = 0
            let deadline = Date().addingTimeInterval(TestTime.seconds(60))
            while Date() < deadline {
                progress = try await Self.campaign(server.serve, id)["changed"] as? Int ?? 0
                if progress > 0 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            kill(server.serve.process.processIdentifier, SIGKILL)
            server.serve.process.waitUntilExit()
            #expect(progress > 0 && progress < passCount, "the campaign was at \(progress) of \(passCount) when killed")

            let restarted = try await ServeProcess(arguments: server.serve.arguments, reusing: server.serve)
            defer { restarted.process.terminate() }
            let done = try await Self.finished(restarted, id)
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["matched"] as? Int == passCount)
            #expect(done["changed"] as? Int == passCount)
            #expect(done["pushesQueued"] as? Int == deviceCount)
            // One new version per pass, whatever the crash cut: the sentinel's tag moved by the campaign's passes + 1.
            let after = try await Self.sentinelTag(restarted, serial: "KR-00000")
            #expect(after - before == passCount + 1, "tags \(before) → \(after)")
            let tokens = try await Self.pushedTokens(server.apns, count: deviceCount)
            #expect(tokens.count == deviceCount, "\(tokens.count) of \(deviceCount) devices pushed")
            _ = try await restarted.terminate()
        }
    }

    @Test("two tessera serve processes on one PostgreSQL database work on one campaign, each pass changed once",
          .enabled(if: !TestPostgres.skipped, "TESSERA_SKIP_POSTGRES=1"))
    func twoProcesses() async throws {
        let passCount = 240
        let deviceCount = 60
        try await Server.with(.postgres, processes: 2, arguments: ["--campaign-batch-size", "2", "--log-level", "debug"]) { servers in
            for index in 0..<passCount {
                let serve = servers[index % 2].serve
                let body = #"{"template":"event-ticket","data":{"serialNumber":"PG-\#(index)"}}"#
                let created = try #require(try await serve.request(
                    "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
                    timeout: 30))
                try #require(created.status == 201)
                let token = try #require(try Server.json(created.body)["authenticationToken"] as? String)
                let push = #"{"pushToken":"\#(String(format: "%064x", 0xFACE0000 + index % deviceCount))"}"#
                let registered = try #require(try await serve.request(
                    "POST /v1/devices/device-\(index % deviceCount)/registrations/\(Self.passType)/PG-\(index) HTTP/1.1\r\n"
                        + "Host: x\r\nAuthorization: ApplePass \(token)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(push.utf8.count)\r\nConnection: close\r\n\r\n\(push)", timeout: 30))
                try #require(registered.status == 201)
            }
            let before = try await Self.sentinelTag(servers[0].serve, serial: "PG-0")
            let database = try #require(servers[0].database)
            var id = ""
            let logger = Logger(label: "test")
            try await TestPostgres.withStore(url: database, logger: logger) { store in
                id = try await store.pool.transaction(mapError: { $0 }) { connection in
                    // One pass in the middle of the campaign is held: the process that reaches its batch waits for it
                    // with the campaign's row locked, and the other, on the same batch, waits for that one (as does
                    // the first process's next batch, handed over meanwhile). Both then work on the campaign,
                    // whoever found it first and however fast it went.
                    let held = try await connection.query(
                        "SELECT serial_number FROM passes WHERE serial_number = 'PG-2' FOR UPDATE", logger: logger
                    ).collect()
                    try #require(held.count == 1)
                    let id = try await Self.start(servers[0].serve, #"""
                        {"select":{"template":"event-ticket"},"data":{"fields":{"section":"Z"}}}
                        """#)
                    var waiting: (Int64, Int64) = (0, 0)
                    let deadline = Date().addingTimeInterval(TestTime.seconds(60))
                    while (waiting.0 != 1 || waiting.1 < 2) && Date() < deadline {
                        // The batch's pass update waiting for this transaction, and two writes waiting for that one:
                        // the other process's write of the same batch (for the pushes it owes, the same rows, or for
                        // the campaign's row) and the first process's next batch (for the campaign's row). (A
                        // transaction keeps its first look at pg_stat_activity until told to look again.)
                        try await connection.query("SELECT pg_stat_clear_snapshot()", logger: logger)
                        // Waiting for it directly or behind another waiter (a row lock's queue names the one ahead).
                        let rows = try await connection.query("""
                            WITH RECURSIVE first AS (
                                SELECT pid FROM pg_stat_activity
                                WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid)) AND query LIKE '%UPDATE passes p SET%'
                            ), behind(pid) AS (
                                SELECT pid FROM first
                                UNION
                                SELECT s.pid FROM pg_stat_activity s JOIN behind b ON b.pid = ANY(pg_blocking_pids(s.pid))
                            )
                            SELECT (SELECT count(*) FROM first), (SELECT count(*) FROM pg_stat_activity s
                                WHERE s.pid IN (SELECT pid FROM behind) AND s.pid NOT IN (SELECT pid FROM first)
                                AND (s.query LIKE '%INSERT INTO campaign_pushes%' OR s.query LIKE '%FROM campaigns WHERE id = $1 FOR UPDATE%'))
                            """, logger: logger).collect()
                        waiting = try #require(rows.first).decode((Int64, Int64).self)
                        if waiting.0 != 1 || waiting.1 < 2 { try await Task.sleep(for: .milliseconds(50)) }
                    }
                    try #require(waiting.0 == 1 && waiting.1 == 2,
                                 "processes waiting for the held pass, and for the first one: \(waiting)")
                    return id
                }
            }
            let done = try await Self.finished(servers[1].serve, id)
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["changed"] as? Int == passCount)
            #expect(done["pushesQueued"] as? Int == deviceCount)
            let after = try await Self.sentinelTag(servers[1].serve, serial: "PG-0")
            #expect(after - before == passCount + 1, "tags \(before) → \(after)")
            let tokens = try await Self.pushedTokens(servers[0].apns, count: deviceCount)
            #expect(tokens.count == deviceCount)
            func count(_ line: String) -> [Int] { servers.map { $0.serve.log.components(separatedBy: line).count - 1 } }
            let written = count("campaign batch written")
            let elsewhere = count("campaign batch already written")
            // 120 batches of two passes, then the empty one that finds nothing more and ends the campaign: each once.
            #expect(written.reduce(0, +) == passCount / 2 + 1, "batches written by each process: \(written)")
            // The held batch: one process wrote it, the other found it written.
            #expect(elsewhere.reduce(0, +) >= 1, "batches found written by each process: \(elsewhere)")
            #expect(zip(written, elsewhere).allSatisfy { $0 + $1 > 0 }, "written \(written), found written \(elsewhere)")
        }
    }

    @Test("a scheduled campaign runs at its time also when the server restarted between its creation and its time")
    func scheduledAcrossARestart() async throws {
        try await Server.with(.sqlite) { server in
            let body = #"{"template":"event-ticket","data":{"serialNumber":"SR-1"}}"#
            let created = try #require(try await server.serve.request(
                "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
                timeout: 30))
            try #require(created.status == 201)
            // Far enough ahead for a stop and a start on a loaded machine.
            let due = Date().addingTimeInterval(TestTime.seconds(5))
            let at = due.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            let id = try await Self.start(server.serve, #"""
                {"select":{"template":"event-ticket"},"data":{"fields":{"seat":"4D"}},"scheduledAt":"\#(at)"}
                """#)
            #expect(try await server.serve.terminate() == 0)
            let restarted = try await ServeProcess(arguments: server.serve.arguments, reusing: server.serve)
            defer { restarted.process.terminate() }
            let backBeforeDue = Date() < due
            let done = try await Self.finished(restarted, id)
            #expect(done["state"] as? String == "done", "\(done)")
            let started = try #require((done["startedAt"] as? String).flatMap {
                try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0)
            })
            #expect(started >= due.addingTimeInterval(-0.001), "started \(started), before its time \(due)")
            // When the restarted server was up before the campaign's time (a restart slower than the lead on a loaded
            // machine proves only that it ran once up), it ran within 2 s of that time.
            if backBeforeDue {
                #expect(started < due.addingTimeInterval(TestTime.seconds(2)), "started \(started), due \(due)")
            }
            _ = try await restarted.terminate()
        }
    }
}
