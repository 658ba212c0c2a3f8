@testable import APNs
import Foundation
import NIOCore
import TesseraTestSupport
import Testing

@Suite("APNs streams on one connection: many at once, timeouts, GOAWAY (through the HTTP/2 stand-in)")
struct APNsClientStreamTests {
    static func authentication(_: TestServerCertificates) throws -> APNsClient.Configuration.Authentication {
        try StandInFixture.tokenAuthentication().0
    }

    static func token(_ index: Int) -> String {
        String(format: "%064x", index)
    }

    @Test("500 pushes at once, more than the peer's concurrent streams, are each answered once on one connection")
    func manyAtOnce() async throws {
        // The limit is long: this is about every answer reaching its push, and a machine busy with the rest of the
        // suite has stalled the answers' reading past 10 s (100 pushes "timed out" that the stand-in had answered).
        try await StandInFixture.with(
            authentication: Self.authentication, configure: { $0.requestTimeout = TestTime.seconds(120) }
        ) { standIn, client in
            let results = try await withThrowingTaskGroup(of: (String, APNsResult).self) { group in
                for index in 0..<500 {
                    let token = Self.token(index)
                    group.addTask { (token, try await client.send(pushToken: token, topic: StandInFixture.topic)) }
                }
                var results: [String: APNsResult] = [:]
                for try await (token, result) in group { results[token] = result }
                return results
            }
            #expect(results.count == 500)
            let delivered = results.values.filter { $0.isDelivered }.count
            // What the others got, and what the stand-in saw, counted: enough to tell a lost answer from a slow one.
            let undelivered = Dictionary(grouping: results.values.filter { !$0.isDelivered }) { "\($0)" }
                .mapValues(\.count)
            let seen = Dictionary(grouping: standIn.requests) { $0.status }.mapValues(\.count)
            #expect(delivered == 500, "not delivered: \(undelivered); the stand-in answered (by status): \(seen)")
            let tokens = standIn.requests.compactMap(\.pushToken)
            #expect(tokens.count == 500)
            let missing = Set((0..<500).map(Self.token)).subtracting(tokens)
            #expect(missing.isEmpty, "\(missing.count) pushes never reached the stand-in")
            #expect(standIn.connections == 1)
        }
    }

    @Test("Answers with bodies past the connection's 64 KiB receive window keep arriving (the window is reopened)")
    func receiveWindow() async throws {
        try await StandInFixture.with(authentication: Self.authentication) { standIn, client in
            let reason = String(repeating: "R", count: 600)
            for _ in 0..<150 { standIn.enqueue(.custom(status: 400, reason: reason)) }
            for index in 0..<150 {
                let result = try await client.send(pushToken: Self.token(index), topic: StandInFixture.topic)
                guard case .failed(let status, let answered) = result, status == 400, answered == reason else {
                    Issue.record("push \(index): expected failed 400 with the long reason, got \(result)")
                    return
                }
            }
            #expect(standIn.requests.count == 150)
            #expect(standIn.connections == 1)
        }
    }

    @Test("A push APNs never answers times out as retryable, and the connection (its PING answered) goes on serving others")
    func timeout() async throws {
        try await StandInFixture.with(authentication: Self.authentication, configure: { $0.requestTimeout = 3 }) {
            standIn, client in
            standIn.enqueue(.noAnswer)
            let started = ContinuousClock.now
            let silent = try await client.send(pushToken: Self.token(1), topic: StandInFixture.topic)
            let waited = ContinuousClock.now - started
            guard case .retryable(let status, let reason, _) = silent else {
                Issue.record("expected retryable, got \(silent)")
                return
            }
            #expect(status == nil)
            #expect(reason.contains("no answer from APNs in time"))
            // An upper bound for a push that never ends; loose, since a full suite run can hold this task for 30 s.
            #expect(waited >= .milliseconds(2_900) && waited < .seconds(120), "timed out after \(waited)")
            // Nothing else was heard meanwhile, so a PING went out: answered, it keeps the connection past its wait.
            try await Task.sleep(for: .seconds(12))
            // The next push is answered on the same connection. While the whole suite loads the machine, an answer
            // can take longer than the 3 s limit: such a push is retryable and is sent again, as the dispatcher does.
            var next = try await client.send(pushToken: Self.token(2), topic: StandInFixture.topic)
            let deadline = ContinuousClock.now + TestTime.duration(.seconds(20))
            while case .retryable(nil, _, _) = next, ContinuousClock.now < deadline {
                next = try await client.send(pushToken: Self.token(2), topic: StandInFixture.topic)
            }
            #expect(next.isDelivered, "\(next)")
            #expect(standIn.connections == 1)
        }
    }

    @Test("A connection gone silent (a push unanswered, then a PING too) takes no more pushes: the next opens another")
    func silentConnectionIsReplaced() async throws {
        try await StandInFixture.with(authentication: Self.authentication, configure: { $0.requestTimeout = 2 }) {
            standIn, client in
            standIn.enqueue(.blackHole)
            let silent = try await client.send(pushToken: Self.token(1), topic: StandInFixture.topic)
            guard case .retryable(nil, _, _) = silent else {
                Issue.record("expected retryable, got \(silent)")
                return
            }
            // Until the PING has gone unanswered (10 s), a push may still be sent on the silent connection and time out.
            var next = try await client.send(pushToken: Self.token(2), topic: StandInFixture.topic)
            let deadline = ContinuousClock.now + TestTime.duration(.seconds(45))
            while !next.isDelivered, ContinuousClock.now < deadline {
                next = try await client.send(pushToken: Self.token(2), topic: StandInFixture.topic)
            }
            #expect(next.isDelivered, "\(next)")
            #expect(standIn.connections == 2)
        }
    }

    @Test("Answers that come after 100 pushes timed out at once are ignored: the connection goes on serving")
    func answersAfterManyTimeouts() async throws {
        // On a crowded machine some pushes can time out before their stream was written, and so never reach the
        // stand-in: what this test is about needs more resets than HTTP/2's default list of 32 to be answered late.
        // A run where too few reached it checks nothing, and is made again (at most three times).
        var reached: [Int] = []
        for _ in 1...3 where (reached.last ?? 0) <= 32 {
            try await StandInFixture.with(authentication: Self.authentication, configure: { $0.requestTimeout = 1 }) {
                standIn, client in
                // Each answer comes 2 s after its push: past the client's 1 s, when its stream was reset. HTTP/2 keeps
                // a list of the streams reset lately, and frames for older closed streams are a connection error.
                // (100: more resets than the list held, fewer than the 200 in 30 s after which the stand-in, as
                // servers guarding against rapid resets do, closes the connection.)
                for _ in 0..<100 { standIn.enqueue(.late(seconds: 2)) }
                let results = try await withThrowingTaskGroup(of: APNsResult.self) { group in
                    for index in 0..<100 {
                        group.addTask { try await client.send(pushToken: Self.token(index), topic: StandInFixture.topic) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(results.allSatisfy { if case .retryable(nil, _, _) = $0 { true } else { false } })
                reached.append(standIn.requests.count)
                guard standIn.requests.count > 32 else { return }
                // Their unused late answers are dropped, so the push below is answered at once.
                standIn.discardScript()
                // Every push is over, so every late answer is on its way 2 s later; a little more for them to arrive.
                try await Task.sleep(for: .seconds(2) + TestTime.duration(.seconds(1)))
                var next = try await client.send(pushToken: Self.token(500), topic: StandInFixture.topic)
                let deadline = ContinuousClock.now + TestTime.duration(.seconds(20))
                while case .retryable(nil, _, _) = next, ContinuousClock.now < deadline {
                    next = try await client.send(pushToken: Self.token(500), topic: StandInFixture.topic)
                }
                #expect(next.isDelivered, "\(next)")
                #expect(standIn.connections == 1, "the late answers closed the connection")
            }
        }
        #expect((reached.last ?? 0) > 32, "pushes that reached the stand-in in each run: \(reached)")
    }

    @Test("A push with a shorter time limit than one already waiting times out at its own limit")
    func shorterLimitAfterLongerOne() async throws {
        try await StandInFixture.with(authentication: Self.authentication) { standIn, client in
            standIn.enqueue(.noAnswer, .noAnswer)
            let headers = [("apns-topic", StandInFixture.topic)]
            let long = Task {
                try await client.connections[0].send(path: "/3/device/\(Self.token(1))", headers: headers,
                                                 body: APNsClient.body, timeout: .seconds(300))
            }
            while standIn.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            let started = ContinuousClock.now
            await #expect(throws: APNsConnection.Failure.self) {
                try await client.connections[0].send(path: "/3/device/\(Self.token(2))", headers: headers,
                                                 body: APNsClient.body, timeout: .seconds(1))
            }
            let waited = ContinuousClock.now - started
            // Far below the other push's 300 s, also when the whole suite keeps this task waiting for a thread (the
            // first minutes of a full run on two cores can hold it for 30 s).
            #expect(waited >= .milliseconds(900) && waited < .seconds(120), "the 1 s push timed out after \(waited)")
            long.cancel()
        }
    }

    @Test("After a GOAWAY the unprocessed push is retryable and the next one goes on a new connection")
    func goAway() async throws {
        try await StandInFixture.with(authentication: Self.authentication) { standIn, client in
            let first = try await client.send(pushToken: Self.token(1), topic: StandInFixture.topic)
            #expect(first.isDelivered)
            standIn.enqueue(.goAway)
            let refused = try await client.send(pushToken: Self.token(2), topic: StandInFixture.topic)
            guard case .retryable(let status, _, _) = refused else {
                Issue.record("expected retryable, got \(refused)")
                return
            }
            #expect(status == nil)
            let next = try await client.send(pushToken: Self.token(3), topic: StandInFixture.topic)
            #expect(next.isDelivered)
            #expect(standIn.connections == 2)
            #expect(standIn.requests.map(\.status) == [200, APNsStandIn.goAwayStatus, 200])
        }
    }
}
