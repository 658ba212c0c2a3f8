import Foundation
import Testing
import TesseraTestSupport

/// `tessera serve` against held connections: idle, header-read and body-read timeouts close them, and with the
/// open-file limit lowered below the number of connections held, the cap refuses the excess while the server keeps
/// answering and never dies.
@Suite("tessera serve connection limits", .serialized)
struct ServeConnectionLimitTests {
    @Test("idle, byte-a-second and stalled-body connections are closed after their timeouts")
    func timeouts() async throws {
        let server = try await ServeProcess(arguments: ["--idle-timeout", "1", "--header-timeout", "1.5", "--body-timeout", "1"])
        // The whole exchange on a thread of its own, which sleeps between bytes: how long it takes then depends on the
        // server's timeouts, not on when a busy test process gives an async test one of its shared threads back.
        struct Outcome: Sendable {
            var keptAnswered: Bool
            var slowClosed: Bool
            var stillOpen: [String]
            var seconds: Double
        }
        let port = server.port
        let outcome = try await offCooperativePool { () throws -> Outcome in
            let started = Date()
            let idle = try RawHTTPConnection(port: port, timeout: 0.2)
            let slow = try RawHTTPConnection(port: port, timeout: 0.05)
            let stalled = try RawHTTPConnection(port: port, timeout: 0.2)
            try stalled.send("POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"te")
            let kept = try RawHTTPConnection(port: port, timeout: 0.2)
            try kept.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let keptAnswered = kept.readResponse()?.status == 200
            // A byte every 100 ms: busy, but the head is never complete.
            var slowClosed = false
            for byte in "GET /health HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".utf8 {
                if (try? slow.send(Data([byte]))) == nil || slow.read() == .closed {
                    slowClosed = true
                    break
                }
                usleep(100_000)
            }
            let stillOpen = [("idle", idle), ("stalled body", stalled), ("kept-alive", kept)].filter { _, connection in
                !connection.read(until: { _ in false }, deadline: Date().addingTimeInterval(4)).closed
            }.map(\.0)
            return Outcome(keptAnswered: keptAnswered, slowClosed: slowClosed, stillOpen: stillOpen,
                           seconds: Date().timeIntervalSince(started))
        }
        #expect(outcome.keptAnswered)
        #expect(outcome.slowClosed, "the byte-a-second connection was still open after \(outcome.seconds) s")
        #expect(outcome.stillOpen.isEmpty, "still open: \(outcome.stillOpen)")
        // A bound against a hang (the timeouts are 1-1.5 s; about 7 s on a quiet machine), scaled for a loaded one.
        #expect(outcome.seconds < TestTime.seconds(20))
        #expect(try await server.terminate() == 0)
    }

    @Test("a client that sends requests and never reads the answers is closed after the idle timeout")
    func unreadAnswersClose() async throws {
        let server = try await ServeProcess(arguments: ["--idle-timeout", "2"])
        struct Outcome: Sendable {
            var accepted: Int
            var blocked: Bool
            var answered: Int
            var closed: Bool
        }
        let port = server.port
        let outcome = try await offCooperativePool { () throws -> Outcome in
            let hog = try RawHTTPConnection(port: port, timeout: 0.5, receiveBufferSize: 4096)
            hog.setSendTimeout(1)
            // The console's script (about 50 KB) a thousand times: far more than the socket buffers hold.
            let chunk = String(repeating: "GET /console/assets/console.js HTTP/1.1\r\nHost: x\r\n\r\n", count: 100)
            var accepted = 0
            var blocked = false
            for _ in 0..<10 {
                do { try hog.send(chunk); accepted += 100 } catch { blocked = true; break }
            }
            sleep(8)  // well past the idle timeout, reading nothing
            // Reading now takes what the buffers hold, then finds the connection closed: the server did not go on
            // answering every request once the client read again.
            let all = hog.read(until: { _ in false }, deadline: Date().addingTimeInterval(TestTime.seconds(30)))
            let answered = all.text.components(separatedBy: "HTTP/1.1 200").count - 1
            return Outcome(accepted: accepted, blocked: blocked, answered: answered, closed: all.closed)
        }
        #expect(outcome.accepted > 0 || outcome.blocked)
        #expect(outcome.closed)
        #expect(outcome.answered < outcome.accepted,
                "\(outcome.answered) of \(outcome.accepted) answered: the connection stayed open while its answers went unread")
        let other = try RawHTTPConnection(port: port, timeout: 5)
        try other.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await other.response()?.status == 200)
        #expect(try await server.terminate() == 0)
    }

    @Test("more connections held than RLIMIT_NOFILE allows: the excess is refused, the server answers and lives")
    func descriptorLimit() async throws {
        let limit = 300
        let server = try await ServeProcess(descriptorLimit: limit)
        var held: [RawHTTPConnection] = []
        for _ in 0..<(limit + 20) {
            if let connection = try? RawHTTPConnection(port: server.port, timeout: 0.5) { held.append(connection) }
        }
        #expect(held.count > limit)
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.process.isRunning, "server died: \(server.log.suffix(2000))")

        // The first connections were accepted under the cap: the server still answers on them.
        for connection in held.prefix(3) {
            try connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.response()?.status == 200, "\(server.log.suffix(2000))")
        }
        // The excess was refused: closed without an answer.
        var refused = 0
        for connection in held.suffix(10) {
            try? connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            if try await connection.response(deadline: Date().addingTimeInterval(2)) == nil { refused += 1 }
        }
        #expect(refused == 10)
        #expect(server.log.contains("connection refused: at the connection cap"))

        for connection in held { connection.close() }
        held.removeAll()
        try await Task.sleep(for: .milliseconds(300))
        let fresh = try await server.request("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(fresh?.status == 200)
        #expect(server.process.isRunning)
        #expect(try await server.terminate() == 0)
    }
}
