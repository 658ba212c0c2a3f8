/// How `tessera serve` stops on SIGTERM or SIGINT.
///
/// It stops accepting at once and lets in-flight requests finish for up to ``gracePeriod``; then it cancels what is
/// left (logging how many requests and connections that was) and exits. Should even that hang, the process exits at
/// ``hardDeadline`` regardless, logging what it abandoned.
public struct ShutdownLimits: Sendable, Equatable {
    /// Longest wait for in-flight requests to finish.
    public var gracePeriod: Duration
    /// When the process exits whatever is still running (counted from the signal; at least ``gracePeriod``).
    public var hardDeadline: Duration

    /// Creates limits.
    /// - Parameters:
    ///   - gracePeriod: Longest wait for in-flight requests (default 25 s).
    ///   - hardDeadline: When the process exits regardless (default 30 s; raised to `gracePeriod` when shorter).
    public init(gracePeriod: Duration = .seconds(25), hardDeadline: Duration = .seconds(30)) {
        self.gracePeriod = gracePeriod
        self.hardDeadline = max(hardDeadline, gracePeriod)
    }
}

/// The shutdown grace period ended with requests still in flight; they were cancelled unanswered.
public struct ShutdownError: Error, Sendable, CustomStringConvertible {
    /// How many requests were cancelled.
    public let requestsAbandoned: Int

    /// What happened.
    public var description: String {
        "shutdown grace period over: \(requestsAbandoned) request\(requestsAbandoned == 1 ? "" : "s") in flight abandoned"
    }
}
