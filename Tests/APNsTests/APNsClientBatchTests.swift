@testable import APNs
import Foundation
import TesseraTestSupport
import Testing

@Suite("APNs pushes sent together: one hop for many (through the HTTP/2 stand-in)")
struct APNsClientBatchTests {
    static func authentication(_: TestServerCertificates) throws -> APNsClient.Configuration.Authentication {
        try StandInFixture.tokenAuthentication().0
    }

    static func token(_ index: Int) -> String { String(format: "%064x", index) }

    @Test("each token gets its own answer in order; a malformed one is not sent; every push has the topic's headers")
    func resultsInOrder() async throws {
        try await StandInFixture.with(authentication: Self.authentication) { standIn, client in
            // The stand-in takes the next scripted reply for whichever push it handles next (not necessarily in the
            // order written): each result is checked against what the stand-in answered for that token.
            standIn.enqueue(.unregistered(timestamp: Date(timeIntervalSince1970: 1_700_000_123)), .success(apnsID: "id-2"),
                            .tooManyRequests(retryAfter: 7))
            let tokens = [Self.token(1), "not a token", Self.token(2), Self.token(3)] + (4..<150).map(Self.token)
            let results = try await client.send(pushTokens: tokens, topic: StandInFixture.topic)
            #expect(results.count == tokens.count)
            #expect(results[1] == .malformedToken && results[1].invalidatesPushToken)
            let answered = Dictionary(standIn.requests.compactMap { request in request.pushToken.map { ($0, request.status) } }) { $1 }
            #expect(Set(answered.keys) == Set(tokens).subtracting(["not a token"]))
            var kinds: [String: Int] = [:]
            for (token, result) in zip(tokens, results) where token != "not a token" {
                let status = answered[token]
                switch result {
                case .delivered: #expect(status == 200, "\(token): delivered, the stand-in answered \(status ?? 0)")
                case .unregistered(let timestamp?):
                    #expect(status == 410 && abs(timestamp.timeIntervalSince1970 - 1_700_000_123) < 1)
                case .retryable(let code, _, let retryAfter): #expect(status == 429 && code == 429 && retryAfter == 7)
                default: Issue.record("\(token): unexpected \(result), the stand-in answered \(status ?? 0)")
                }
                kinds["\(result)".prefix(while: { $0 != "(" }).description, default: 0] += 1
            }
            #expect(kinds == ["delivered": 147, "unregistered": 1, "retryable": 1], "\(kinds)")

            // 149 sent (more than the stand-in's 100 concurrent streams), on one connection, each with the headers.
            #expect(standIn.requests.allSatisfy {
                $0.method == "POST" && $0.headers["apns-topic"] == StandInFixture.topic
                    && $0.headers["authorization"]?.hasPrefix("bearer ") == true
            })
            #expect(standIn.connections == 1)

            #expect(try await client.send(pushTokens: [], topic: StandInFixture.topic).isEmpty)
            await #expect(throws: APNsError.self) { try await client.send(pushTokens: [Self.token(9)], topic: "bad topic") }
            #expect(standIn.requests.count == 149)
        }
    }

    // The limit is long enough for the answered pushes to come back on a machine crowded by the rest of the suite
    // (at 2 s, all three once timed out there); the unanswered one then takes that long.
    @Test("a push of a batch that is never answered times out alone; the others are answered")
    func oneTimesOut() async throws {
        try await StandInFixture.with(
            authentication: Self.authentication, configure: { $0.requestTimeout = TestTime.seconds(10) }
        ) { standIn, client in
            standIn.enqueue(.success(), .noAnswer, .success())
            let results = try await client.send(pushTokens: (1...3).map(Self.token), topic: StandInFixture.topic)
            // Whichever push the stand-in handled second went unanswered (it takes the script in its own order).
            let delivered = results.filter { if case .delivered = $0 { true } else { false } }
            let timedOut = results.filter { if case .retryable(nil, let reason, nil) = $0 { reason.contains("in time") } else { false } }
            #expect(delivered.count == 2 && timedOut.count == 1, "\(results)")
        }
    }
}
