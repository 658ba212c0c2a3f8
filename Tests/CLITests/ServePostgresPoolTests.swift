import Foundation
import Testing
import TesseraTestSupport

/// `tessera serve` on PostgreSQL as deployed: its connection pool's size and wait times at `/metrics`, and the
/// event-loop thread count flag.
@Suite("tessera serve PostgreSQL pool", .serialized)
struct ServePostgresPoolTests {
    @Test("the pool's size, connections in use and wait times are exported at /metrics",
          .enabled(if: !TestPostgres.skipped, "PostgreSQL tests skipped (TESSERA_SKIP_POSTGRES=1)"))
    func poolMetrics() async throws {
        guard let url = TestPostgres.url else {
            Issue.record(Comment(rawValue: TestPostgres.missingServer("the pool metrics test")))
            return
        }
        let database = url + (url.contains("?") ? "&" : "?")
            + "schema=tessera_pool_\(UInt32.random(in: 0...UInt32.max))&max_connections=3"
        let server = try await ServeProcess(arguments: ["--database", database, "--event-loop-threads", "1"])
        let body = #"{"template":"event-ticket","data":{"serialNumber":"POOL-1"}}"#
        let created = try #require(try await server.request(
            "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"))
        #expect(created.status == 201)
        for _ in 0..<5 {
            let list = try #require(try await server.request(
                "GET /v1/devices/pool-device/registrations/pass.dev.tessera.demo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
            #expect(list.status == 204)
        }
        // The server's own pollers (pushes, campaigns) lease a connection now and then, and on a loaded machine one
        // may be out when /metrics is read: every connection given back shows as in use 0 within a few reads; a
        // leaked one never does.
        var text = ""
        let deadline = Date().addingTimeInterval(TestTime.seconds(10))
        repeat {
            let metrics = try #require(try await server.request("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
            text = String(decoding: metrics.body, as: UTF8.self)
            if Self.value(#"tessera_postgres_pool_connections{state="in_use"}"#, in: text) == 0,
               Self.value("tessera_postgres_pool_waiting", in: text) == 0 { break }
            try await Task.sleep(for: .milliseconds(100))
        } while Date() < deadline
        #expect(Self.value(#"tessera_postgres_pool_connections{state="size"}"#, in: text) == 3)
        #expect(Self.value(#"tessera_postgres_pool_connections{state="in_use"}"#, in: text) == 0)
        #expect(Self.value("tessera_postgres_pool_waiting", in: text) == 0)
        // Every statement leased a connection: the migration, the insert, five lists (and the health checks).
        #expect((Self.value("tessera_postgres_pool_wait_seconds_count", in: text) ?? 0) >= 7)
        #expect(text.contains(#"tessera_postgres_pool_wait_seconds_bucket{le="5e-05"}"#)
                    || text.contains(#"tessera_postgres_pool_wait_seconds_bucket{le="0.00005"}"#),
                "wait buckets start at 50 µs:\n\(text.split(separator: "\n").filter { $0.contains("pool_wait") }.joined(separator: "\n"))")
        _ = try await server.terminate()
    }

    @Test("on a new database the background services wait for the migrations: no error while the tables are made",
          .enabled(if: !TestPostgres.skipped, "PostgreSQL tests skipped (TESSERA_SKIP_POSTGRES=1)"))
    func backgroundServicesAfterMigrations() async throws {
        guard let url = TestPostgres.url else {
            Issue.record(Comment(rawValue: TestPostgres.missingServer("the first start on a new database")))
            return
        }
        let database = url + (url.contains("?") ? "&" : "?") + "schema=tessera_first_\(UInt32.random(in: 0...UInt32.max))"
        let secret = try TemporaryDirectory.make(prefix: "first-start").appendingPathComponent("webhook.secret")
        try Data("first-start-webhook-secret-0123456789".utf8).write(to: secret)
        let server = try await ServeProcess(arguments: [
            "--database", database, "--webhook-url", "http://127.0.0.1:\(ServeProcess.unusedPort())/hook",
            "--webhook-secret-file", secret.path,
            "--webhook-allow-private",
        ])
        // The pollers' first rounds (campaigns, retention, analytics, webhooks) have run by now.
        try await Task.sleep(for: .seconds(2))
        #expect(try await server.send("GET", "/health")?.status == 200)
        _ = try await server.terminate()
        let problems = server.log.split(separator: "\n").filter {
            $0.contains("does not exist") || $0.contains(" error ") || $0.contains("[error]") || $0.contains(" warning ")
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("--event-loop-threads or TESSERA_EVENT_LOOP_THREADS outside 1-256 is a usage error naming the flag")
    func eventLoopThreadsChecked() async throws {
        for (value, environment) in [("0", false), ("257", false), ("-3", true), ("many", true)] {
            let result = try await offCooperativePool {
                environment
                    ? try Subprocess.run(Subprocess.tesseraPath, ["serve"], environment: ["TESSERA_EVENT_LOOP_THREADS": value])
                    : try Subprocess.run(Subprocess.tesseraPath, ["serve", "--event-loop-threads", value])
            }
            #expect(result.status == 2, "\(value): \(result.stderr)")
            let source = environment ? "TESSERA_EVENT_LOOP_THREADS" : "--event-loop-threads"
            #expect(result.stderr.contains("\(source): \(value) is not a number of threads from 1 to 256"),
                    "\(result.stderr)")
        }
    }

    /// The value of a metric line `name value` in Prometheus' text format.
    static func value(_ name: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
