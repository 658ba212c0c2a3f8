import Foundation
import Testing
import TesseraTestSupport

/// A wrong token on an existing serial and any token on a missing one must cost the same, or serial numbers can be
/// probed statistically: the medians of a few thousand interleaved requests of each kind, on one kept-alive
/// connection to a `tessera serve` child (SQLite, and PostgreSQL when the test server is there), must be within noise
/// of each other (a difference every round finds, the same way round, fails). `scripts/test.sh` runs this suite alone,
/// after the rest, so the machine is quiet while it measures.
@Suite("tessera serve timing", .serialized)
struct ServeTimingTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, postgres
        var testDescription: String { rawValue }
        static var tested: [Store] { TestPostgres.skipped ? [.sqlite] : allCases }
    }

    @Test("wrong token on an existing serial and a missing serial take the same time", arguments: Store.tested)
    func existingAndMissingSerialsCostTheSame(store: Store) async throws {
        var arguments: [String] = []
        if store == .postgres {
            guard let url = TestPostgres.url else {
                Issue.record(Comment(rawValue: TestPostgres.missingServer("the PostgreSQL timing test")))
                return
            }
            let schema = "tessera_timing_\(UInt32.random(in: 0...UInt32.max))"
            arguments = ["--database", url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"]
        }
        TestProgress.say("timing \(store)", "starting tessera serve")
        let server = try await ServeProcess(arguments: arguments)
        TestProgress.say("timing \(store)", "server on port \(server.port); measuring")
        let body = #"{"template":"event-ticket","data":{"serialNumber":"TM-1"}}"#
        let created = try #require(try await server.request(
            "POST /api/v1/passes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ServeProcess.adminToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"))
        #expect(created.status == 201)
        let wrongToken = String(repeating: "x", count: 32)
        func request(_ serial: String) -> String {
            "GET /v1/passes/pass.dev.tessera.demo/\(serial) HTTP/1.1\r\nHost: x\r\nAuthorization: ApplePass \(wrongToken)\r\n\r\n"
        }
        let existing = request("TM-1")
        let missing = request("TM-2")
        // The measurement runs on a thread of its own, so it neither holds a cooperative thread for its whole length
        // nor waits for one between requests.
        let (withinNoise, rounds, wrongAnswers) = try await offCooperativePool { () throws -> (Bool, [String], Int) in
            var wrongAnswers = 0
            // Generous: one answer held up for seconds by a loaded machine is slow, not wrong (and a timed-out read
            // would pair every later request with the answer before it).
            let connection = try RawHTTPConnection(port: server.port, timeout: TestTime.seconds(10))
            let clock = ContinuousClock()
            func time(_ text: String) throws -> Double {
                let start = clock.now
                try connection.send(text)
                let answer = connection.readResponse()
                let elapsed = clock.now - start
                if answer?.status != 401 { wrongAnswers += 1 }
                return Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
            }
            for _ in 0..<300 {  // warm up: caches, branch predictors, statement caches
                _ = try time(existing)
                _ = try time(missing)
            }
            func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
            // Noise: how far apart the medians of the two halves of the same kind of request are.
            func halves(_ values: [Double]) -> Double {
                abs(median(values.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element))
                    - median(values.enumerated().filter { !$0.offset.isMultiple(of: 2) }.map(\.element)))
            }
            // A real difference shows in every round, the same way round; a burst of load on the shared machine rarely
            // spans three. The test passes when one round of 3,000 pairs finds the medians within noise, or when the
            // rounds disagree on which path is slower (noise has no direction; a leak has one).
            var rounds: [String] = []
            var withinNoise = false
            var differences: [Double] = []
            for _ in 0..<5 where !withinNoise {
                var existingTimes: [Double] = []
                var missingTimes: [Double] = []
                for pair in 0..<3000 {
                    // Interleaved, alternating which goes first, so drift in the machine's load hits both alike.
                    if pair.isMultiple(of: 2) {
                        existingTimes.append(try time(existing))
                        missingTimes.append(try time(missing))
                    } else {
                        missingTimes.append(try time(missing))
                        existingTimes.append(try time(existing))
                    }
                }
                let existingMedian = median(existingTimes)
                let missingMedian = median(missingTimes)
                let difference = existingMedian - missingMedian
                let noise = max(halves(existingTimes), halves(missingTimes))
                // A difference smaller than the round's own noise (how far two halves of one kind of request are
                // apart) cannot be told from it; on a loaded machine that noise is tens of microseconds and changes
                // sign from round to round, while a real difference keeps its sign and size. The noise counts up to
                // 3 % of the median, so a larger difference fails however noisy the machine.
                let allowed = max(4.0, 0.006 * missingMedian, min(noise, 0.03 * missingMedian))
                rounds.append(
                    "existing \(existingMedian) µs, missing \(missingMedian) µs, difference \(difference) µs (allowed \(allowed), noise \(noise))")
                print("timing: \(rounds.last!)")
                withinNoise = abs(difference) <= allowed
                differences.append(difference)
            }
            let oneDirection = differences.allSatisfy { $0 > 0 } || differences.allSatisfy { $0 < 0 }
            if !withinNoise && !oneDirection { print("timing: the rounds disagree on which path is slower: noise") }
            return (withinNoise || !oneDirection, rounds, wrongAnswers)
        }
        TestProgress.say("timing \(store)", "measured; stopping the server")
        #expect(wrongAnswers == 0, "\(wrongAnswers) answers were not 401")
        #expect(withinNoise, "every round found the two paths apart, the same path slower: \(rounds)")
        try await server.terminate()
        TestProgress.say("timing \(store)", "server stopped")
    }
}
