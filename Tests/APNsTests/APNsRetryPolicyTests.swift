@testable import APNs
import Foundation
import Testing

/// A deterministic generator (SplitMix64) for jitter tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("APNs retry policy")
struct APNsRetryPolicyTests {
    @Test("Without jitter delays double up to the cap")
    func exponential() {
        let policy = APNsRetryPolicy(maxAttempts: 10, initialDelay: 1, multiplier: 2, maximumDelay: 20, jitter: 0)
        #expect((1...7).map { policy.delay(forAttempt: $0) } == [1, 2, 4, 8, 16, 20, 20])
    }

    @Test("Jitter stays within its fraction and delays still grow")
    func jitter() {
        let policy = APNsRetryPolicy(maxAttempts: 10, initialDelay: 1, multiplier: 3, maximumDelay: 1000, jitter: 0.2)
        var generator = SeededGenerator(state: 42)
        var previous = 0.0
        for attempt in 1...6 {
            let base = policy.baseDelay(forAttempt: attempt)
            var samples: [TimeInterval] = []
            for _ in 0..<50 { samples.append(policy.delay(forAttempt: attempt, retryAfter: nil, using: &generator)) }
            #expect(samples.allSatisfy { $0 >= base * 0.8 && $0 <= base * 1.2 })
            #expect(Set(samples).count > 1)
            #expect(samples.min()! > previous)
            previous = samples.max()!
        }
    }

    @Test("Retry-After is a floor, capped by maximumRetryAfter")
    func retryAfter() {
        let policy = APNsRetryPolicy(initialDelay: 1, jitter: 0, maximumRetryAfter: 600)
        #expect(policy.delay(forAttempt: 1, retryAfter: 30) == 30)
        #expect(policy.delay(forAttempt: 4, retryAfter: 2) == 8)
        #expect(policy.delay(forAttempt: 1, retryAfter: 86_400) == 600)
    }

    @Test("Only retryable results are retried, at most maxAttempts sends in all")
    func attempts() {
        let policy = APNsRetryPolicy(maxAttempts: 3, initialDelay: 2, jitter: 0)
        let busy = APNsResult.retryable(status: 429, reason: "TooManyRequests", retryAfter: 10)
        #expect(policy.retryDelay(after: busy, attempts: 1) == 10)
        #expect(policy.retryDelay(after: .retryable(status: 500, reason: "x", retryAfter: nil), attempts: 2) == 4)
        #expect(policy.retryDelay(after: busy, attempts: 3) == nil)
        #expect(policy.retryDelay(after: .badDeviceToken, attempts: 1) == nil)
        #expect(policy.retryDelay(after: .failed(status: 403, reason: "InvalidProviderToken"), attempts: 1) == nil)
        #expect(policy.allowsRetry(afterAttempts: 2) && !policy.allowsRetry(afterAttempts: 3))
    }
}
