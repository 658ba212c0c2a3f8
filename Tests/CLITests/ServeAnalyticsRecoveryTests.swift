import Foundation
import Synchronization
import PassStore
import SQLiteStore
import Testing
import TesseraTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Install analytics across a crash: `tessera serve` killed with `kill -9` while devices register, then restarted on
/// the same SQLite file. Each registration the store kept is counted once, whichever transaction folded it.
@Suite("tessera serve analytics across a crash", .serialized)
struct ServeAnalyticsRecoveryTests {
    typealias Server = OrdersServer
    static let passType = OrdersServer.passType

    static func sqlite(_ path: String, _ sql: String) async throws -> String {
        let result = try await Subprocess.run("/usr/bin/env", ["sqlite3", path, sql])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One device's registration for a pass over its own connection: 201, or `nil` when the server is gone.
    static func register(_ serve: ServeProcess, device: Int, pass: Int) async -> Int? {
        let body = #"{"pushToken":"\#(String(format: "%064x", 0xD0C0000 + device))"}"#
        let request = "POST /v1/devices/crash-device-\(device)/registrations/\(passType)/AC-\(String(format: "%04d", pass)) HTTP/1.1\r\n"
            + "Host: x\r\nAuthorization: ApplePass \(token(pass))\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        return (try? await serve.request(request, timeout: 10))??.status
    }

    static func token(_ pass: Int) -> String { String(repeating: "c", count: 24) + String(format: "%08d", pass) }

    @Test("kill -9 while devices register, then a restart: installs and active counts equal the registrations kept")
    func killedWhileRegistering() async throws {
        let passCount = 120
        try await Server.with(.sqlite) { server in
            let path = server.serve.folder.appendingPathComponent("data/tessera.sqlite").path
            let store = try SQLiteStore(path: path)
            try await store.bulkLoad(passes: (0..<passCount).map { index in
                NewPass(passTypeIdentifier: Self.passType, serialNumber: "AC-\(String(format: "%04d", index))",
                        authenticationToken: Self.token(index), template: "event-ticket",
                        data: Data(#"{"serialNumber":"AC-\#(String(format: "%04d", index))"}"#.utf8),
                        downloadToken: String(format: "crash-download-token-%020d", index))
            }, registrations: [], now: Date())
            // 16 clients, each device registering for three passes in turn; the server is killed once 150 are answered.
            let answered = Counter()
            let serve = server.serve
            let clients = Task {
                await withTaskGroup(of: Void.self) { group in
                    for client in 0..<16 {
                        group.addTask {
                            for step in 0..<1_000 {
                                let device = client * 1_000 + step / 3
                                guard let status = await Self.register(serve, device: device, pass: (device * 7 + step) % passCount)
                                else { return }
                                if status == 201 { answered.add() }
                            }
                        }
                    }
                }
            }
            let deadline = Date().addingTimeInterval(TestTime.seconds(60))
            while answered.value < 150, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            kill(serve.process.processIdentifier, SIGKILL)
            serve.process.waitUntilExit()
            await clients.value
            let created = answered.value
            #expect(created >= 150, "\(created) registrations answered before the kill")

            let restarted = try await ServeProcess(arguments: serve.arguments, reusing: serve)
            defer { restarted.process.terminate() }
            // What the store kept: at least every answered registration (a commit may have lost only its answer).
            let kept = try await Self.sqlite(path, """
                SELECT count(*), count(DISTINCT device_library_identifier), count(DISTINCT serial_number) FROM registrations
                """).split(separator: "|").compactMap { Int($0) }
            try #require(kept.count == 3)
            #expect(kept[0] >= created && kept[0] < 16_000, "\(kept[0]) kept, \(created) answered: killed in the middle")
            var totals: [String: Any] = [:]
            let expected = ["installs": kept[0], "removals": 0, "activeDevices": kept[1], "activePasses": kept[2]]
            let until = Date().addingTimeInterval(TestTime.seconds(60))
            while Date() < until {
                let answer = try #require(try await restarted.request(
                    "GET /api/v1/analytics/passes?template=event-ticket&interval=hour HTTP/1.1\r\nHost: x\r\n"
                        + "Authorization: Bearer \(ServeProcess.adminToken)\r\nConnection: close\r\n\r\n", timeout: 30))
                try #require(answer.status == 200, "\(answer.head)")
                totals = try Server.json(answer.body)["totals"] as? [String: Any] ?? [:]
                if expected.allSatisfy({ totals[$0.key] as? Int == $0.value }) { break }
                try await Task.sleep(for: .milliseconds(250))
            }
            for (name, value) in expected { #expect(totals[name] as? Int == value, "\(name): \(totals)") }
            let state = try await Self.sqlite(path, """
                SELECT (SELECT cursor_id FROM analytics_state WHERE name = 'fold') = (SELECT max(id) FROM events),
                    (SELECT count(*) FROM analytics_registrations)
                """)
            #expect(state == "1|0", "the fold at the log's end, every event folded at write (from the registrations, no mirror)")
            _ = try await restarted.terminate()
        }
    }
}

/// A count shared by the clients.
private final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
