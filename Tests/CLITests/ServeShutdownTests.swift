import Foundation
import Synchronization
import Testing
import TesseraTestSupport

/// SIGTERM under load: every request a client sent is answered (the last ones with `Connection: close`) and the
/// process exits 0; a request that does not finish is cancelled after the grace period and the process exits at the
/// hard deadline, logging what it abandoned.
@Suite("tessera serve shutdown", .serialized)
struct ServeShutdownTests {
    @Test("SIGTERM under load drops no request and exits 0")
    func drainsInFlightRequests() async throws {
        // Long limits: the test is about what is answered, not how fast. At the suite's busiest moment beside a CPU hog
        // one PATCH took longer than a 10 s grace period, and was cancelled.
        let grace = Int(TestTime.seconds(60))
        let server = try await ServeProcess(arguments: [
            "--shutdown-grace-period", "\(grace)", "--shutdown-deadline", "\(grace + 15)",
        ])
        let body = #"{"template":"coupon","data":{"serialNumber":"SD-1"}}"#
        let created = try #require(try await server.request(
            "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"))
        let token = try #require((try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["authenticationToken"] as? String)
        let requests = [
            "GET /v1/passes/pass.dev.tessera.demo/SD-1 HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass \(token)\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: x\r\n\r\n",
            "PATCH /api/v1/passes/pass.dev.tessera.demo/SD-1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 32\r\n\r\n" + #"{"data":{"fields":{"item":"X"}}}"#.padding(toLength: 32, withPad: " ", startingAt: 0),
        ]
        let answered = Atomic<Int>(0)
        let dropped = Mutex<[String]>([])
        let workers = 16
        let done = DispatchGroup()
        for worker in 0..<workers {
            done.enter()
            Thread {
                defer { done.leave() }
                guard let connection = try? RawHTTPConnection(port: server.port, timeout: 0.5) else { return }
                var index = worker
                while true {
                    let request = requests[index % requests.count]
                    index += 1
                    guard (try? connection.send(request)) != nil else {
                        dropped.withLock { $0.append("send failed on worker \(worker)") }
                        return
                    }
                    guard let response = connection.readResponse(deadline: Date().addingTimeInterval(Double(grace))) else {
                        dropped.withLock { $0.append("no answer on worker \(worker) to \(request.prefix(30))") }
                        return
                    }
                    answered.add(1, ordering: .relaxed)
                    if response.head.lowercased().contains("\r\nconnection: close") { return }
                }
            }.start()
        }
        try await Task.sleep(for: .milliseconds(800))
        let before = answered.load(ordering: .relaxed)
        server.process.terminate()
        let finished = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: done.wait(timeout: .now() + Double(grace + 20)) == .success)
            }
        }
        #expect(finished)
        #expect(before > 0)
        #expect(dropped.withLock { $0 } == [], "answered \(answered.load(ordering: .relaxed))")
        let deadline = Date().addingTimeInterval(Double(grace + 20))
        while server.process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!server.process.isRunning)
        #expect(server.process.terminationStatus == 0, "\(server.log.suffix(2000))")
    }

    @Test("a request that never finishes: cancelled after the grace period, exit at the deadline, logged")
    func hardDeadline() async throws {
        let server = try await ServeProcess(arguments: [
            "--shutdown-grace-period", "1", "--shutdown-deadline", "2", "--body-timeout", "600", "--header-timeout", "600",
        ])
        let stalled = try RawHTTPConnection(port: server.port, timeout: 0.2)
        // Held open to the end: released after its last use, the connection would close and end the request early.
        defer { withExtendedLifetime(stalled) {} }
        try stalled.send(
            "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"template\":")
        try await Task.sleep(for: .milliseconds(300))
        let signalled = Date()
        server.process.terminate()
        // Timed on a thread of its own: a task sleeping between looks is only as punctual as the cooperative threads
        // other tests share, and a late wake-up would count as the server's time.
        let process = server.process
        let took = try await offCooperativePool { () -> TimeInterval in
            while process.isRunning, Date().timeIntervalSince(signalled) < 10 { usleep(10_000) }
            return Date().timeIntervalSince(signalled)
        }
        #expect(!server.process.isRunning, "still running 10 s after SIGTERM")
        if server.process.isRunning { server.process.interrupt(); return }
        // At the 2 s deadline, not after the request's 600 s body timeout; a machine several times oversubscribed has
        // taken 6.7 s to get there.
        #expect(took < 9, "exited after \(took) s")
        #expect(took >= 0.9, "exited after \(took) s, before the grace period")
        #expect(server.process.terminationStatus != 0)
        let log = server.log
        #expect(log.contains("shutdown grace period over"), "\(log.suffix(3000))")
        #expect(log.contains("requestsInFlight=1"), "\(log.suffix(3000))")
    }
}
