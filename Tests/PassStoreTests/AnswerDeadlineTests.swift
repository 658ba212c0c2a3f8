import Foundation
import PassStore
import Synchronization
import Testing
import TesseraTestSupport

/// A statement that never gets an answer (a server that crashed under it) must not hold a campaign for good.
@Suite("Waiting for the database at most a given time")
struct AnswerDeadlineTests {
    /// An operation that ignores cancellation and ends only when told to, as a statement without an answer does.
    final class Unanswered: Sendable {
        private let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let released = Mutex(false)

        func wait() async {
            await withCheckedContinuation { continuation in
                let now = released.withLock { released in
                    if !released { waiting.withLock { $0 = continuation } }
                    return released
                }
                if now { continuation.resume() }
            }
        }

        func release() {
            released.withLock { $0 = true }
            waiting.withLock { continuation in
                continuation?.resume()
                continuation = nil
            }
        }
    }

    @Test("an operation that ends in time gives its value or its error")
    func inTime() async throws {
        #expect(try await AnswerDeadline.run(seconds: 5, "read") { 42 } == 42)
        await #expect(throws: PassStoreError.invalidData("x")) {
            try await AnswerDeadline.run(seconds: 5, "read") { () async throws -> Int in throw PassStoreError.invalidData("x") }
        }
    }

    @Test("an operation with no answer fails at the deadline, naming it, while it is still running")
    func pastTheDeadline() async throws {
        let unanswered = Unanswered()
        let started = ContinuousClock.now
        await #expect(throws: PassStoreError.unavailable("campaign batch write: no answer from the database in 1 s")) {
            try await AnswerDeadline.run(seconds: 1, "campaign batch write") { await unanswered.wait() }
        }
        let waited = ContinuousClock.now - started
        // Not for ever: a loaded machine may run the deadline's timer late, so the bound is scaled as the suite's others.
        #expect(waited >= .seconds(1) && waited < TestTime.duration(.seconds(30)), "\(waited)")
        unanswered.release()
    }

    @Test("the caller's cancellation ends the wait at once")
    func cancelled() async throws {
        let unanswered = Unanswered()
        let waiting = Task { try await AnswerDeadline.run(seconds: 3600, "write") { await unanswered.wait() } }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        unanswered.release()
    }
}
