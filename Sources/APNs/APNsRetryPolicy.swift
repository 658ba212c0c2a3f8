public import Foundation

/// Exponential backoff with jitter for notifications that came back ``APNsResult/retryable(status:reason:retryAfter:)``.
///
/// Attempt `n` (1 for the first retry) waits `initialDelay × multiplier^(n-1)`, capped at `maximumDelay`, then
/// spread by ± `jitter` of itself so that many failed pushes do not return at the same moment. A server's
/// `Retry-After` is a floor: the policy never waits less than the server asked.
public struct APNsRetryPolicy: Sendable, Equatable {
    /// How many times a notification is sent at most, the first try included.
    public var maxAttempts: Int
    /// Delay before the first retry, in seconds.
    public var initialDelay: TimeInterval
    /// Growth factor between attempts.
    public var multiplier: Double
    /// Upper bound of the backoff (before jitter), in seconds.
    public var maximumDelay: TimeInterval
    /// Fraction of the delay added or removed at random, 0 (none) to 1.
    public var jitter: Double
    /// Upper bound for an honoured `Retry-After`, in seconds, so a hostile or broken answer cannot park a push forever.
    public var maximumRetryAfter: TimeInterval

    /// Creates a policy.
    /// - Parameters:
    ///   - maxAttempts: Sends at most, first try included; defaults to 5.
    ///   - initialDelay: First retry delay; defaults to 1 second.
    ///   - multiplier: Growth factor; defaults to 2.
    ///   - maximumDelay: Backoff cap; defaults to 5 minutes.
    ///   - jitter: Random spread as a fraction; defaults to 0.2.
    ///   - maximumRetryAfter: Cap for `Retry-After`; defaults to 1 hour.
    public init(maxAttempts: Int = 5, initialDelay: TimeInterval = 1, multiplier: Double = 2,
                maximumDelay: TimeInterval = 300, jitter: Double = 0.2, maximumRetryAfter: TimeInterval = 3600) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = max(0, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maximumDelay = max(self.initialDelay, maximumDelay)
        self.jitter = min(max(jitter, 0), 1)
        self.maximumRetryAfter = max(0, maximumRetryAfter)
    }

    /// Whether another try is allowed after `attempts` sends.
    /// - Parameter attempts: Sends made so far, the first included.
    /// - Returns: `true` while `attempts < maxAttempts`.
    public func allowsRetry(afterAttempts attempts: Int) -> Bool { attempts < maxAttempts }

    /// The backoff before retry number `attempt`, without jitter.
    /// - Parameter attempt: 1 for the first retry.
    /// - Returns: Seconds.
    public func baseDelay(forAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(max(attempt, 1) - 1)
        return min(initialDelay * pow(multiplier, exponent), maximumDelay)
    }

    /// The delay before retry number `attempt`.
    /// - Parameters:
    ///   - attempt: 1 for the first retry.
    ///   - retryAfter: The server's `Retry-After` in seconds, if it sent one.
    ///   - generator: The randomness for the jitter (tests pass a seeded one).
    /// - Returns: Seconds to wait.
    public func delay<Generator: RandomNumberGenerator>(
        forAttempt attempt: Int, retryAfter: TimeInterval?, using generator: inout Generator
    ) -> TimeInterval {
        let base = baseDelay(forAttempt: attempt)
        let spread = jitter > 0 ? base * Double.random(in: -jitter...jitter, using: &generator) : 0
        let backoff = max(0, base + spread)
        guard let retryAfter else { return backoff }
        return max(backoff, min(max(retryAfter, 0), maximumRetryAfter))
    }

    /// The delay before retry number `attempt`, with system randomness.
    /// - Parameters:
    ///   - attempt: 1 for the first retry.
    ///   - retryAfter: The server's `Retry-After` in seconds, if it sent one.
    /// - Returns: Seconds to wait.
    public func delay(forAttempt attempt: Int, retryAfter: TimeInterval? = nil) -> TimeInterval {
        var generator = SystemRandomNumberGenerator()
        return delay(forAttempt: attempt, retryAfter: retryAfter, using: &generator)
    }

    /// The delay before retrying after `result`, or `nil` when it should not be retried (not retryable, or
    /// `attempts` already reached ``maxAttempts``).
    /// - Parameters:
    ///   - result: What the last send returned.
    ///   - attempts: Sends made so far, the first included.
    /// - Returns: Seconds to wait, or `nil`.
    public func retryDelay(after result: APNsResult, attempts: Int) -> TimeInterval? {
        guard case .retryable(_, _, let retryAfter) = result, allowsRetry(afterAttempts: attempts) else { return nil }
        return delay(forAttempt: attempts, retryAfter: retryAfter)
    }
}
