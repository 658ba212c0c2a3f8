import Foundation
import Synchronization
import Testing
import TesseraTestSupport

/// `tessera serve` runs request handlers on its event loops (the process's global executor), so nothing may block a
/// loop. The test fixes the loop count (NIO_SINGLETON_GROUP_LOOP_COUNT), so it does not depend on the machine.
@Suite("tessera serve on its event loops", .serialized)
struct ServeEventLoopTests {
    /// Creates passes over one kept-alive connection and returns their authentication tokens.
    private func createPasses(_ server: ServeProcess, count: Int) async throws -> [String: String] {
        let connection = try RawHTTPConnection(port: server.port, timeout: 30)  // signing, on a busy machine
        var tokens: [String: String] = [:]
        for index in 0..<count {
            let body = #"{"template":"event-ticket","data":{"serialNumber":"EL-\#(index)"}}"#
            try connection.send(
                "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let answer = try #require(try await connection.response(deadline: Date().addingTimeInterval(30)))
            try #require(answer.status == 201, "\(answer.head)\n\(String(decoding: answer.body, as: UTF8.self))")
            let json = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            tokens["EL-\(index)"] = json?["authenticationToken"] as? String
        }
        return tokens
    }

    /// Runs `body` on `count` threads at once and waits for all.
    private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread { body(index); group.leave() }.start()
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { group.wait(); continuation.resume() }
        }
    }

    @Test("16 event loops, 8 SQLite read connections, 64 concurrent readers: every request answered")
    func moreReadersThanConnections() async throws {
        let server = try await ServeProcess(environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "16"])
        let tokens = try await createPasses(server, count: 8)
        let serials = Array(tokens.keys)
        let failures = Mutex([String]())
        let answered = Atomic<Int>(0)
        let start = Date()
        await onThreads(64) { index in
            guard let connection = try? RawHTTPConnection(port: server.port, timeout: 10) else {
                failures.withLock { $0.append("connect \(index)") }
                return
            }
            for round in 0..<25 {
                let serial = serials[(index + round) % serials.count]
                let request = round.isMultiple(of: 2)
                    ? "GET /v1/passes/pass.dev.tessera.demo/\(serial) HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass \(tokens[serial] ?? "")\r\n\r\n"
                    : "GET /v1/devices/dev\(index)/registrations/pass.dev.tessera.demo HTTP/1.1\r\nHost: x\r\n\r\n"
                guard (try? connection.send(request)) != nil,
                      let answer = connection.readResponse(deadline: Date().addingTimeInterval(30)),
                      answer.status == 200 || answer.status == 204
                else {
                    failures.withLock { $0.append("thread \(index) round \(round)") }
                    return
                }
                answered.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(10))")
        #expect(answered.load(ordering: .relaxed) == 64 * 25)
        // A bound against a hang, not a speed target: scaled, as a loaded machine answers 1,600 requests later.
        #expect(Date().timeIntervalSince(start) < TestTime.seconds(60))
        #expect(server.process.isRunning)
        try await server.terminate()
    }
}
