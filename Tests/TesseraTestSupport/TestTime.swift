import Foundation

/// How long tests wait for things that take longer on a busy machine: a server's start-up, an answer over a socket.
/// Each wait is written as what a quiet machine needs and multiplied by `TESSERA_TEST_TIME_FACTOR` (3 by default, which
/// a 2-core machine running the whole suite beside `stress-ng --cpu 2` passes with; raise it for slower machines). The
/// factor stretches bounds only: what a test asserts never depends on it.
public enum TestTime {
    /// `TESSERA_TEST_TIME_FACTOR`, or 3; at least 1.
    public static let factor: Double = {
        let text = ProcessInfo.processInfo.environment["TESSERA_TEST_TIME_FACTOR"] ?? ""
        return max(1, Double(text) ?? 3)
    }()

    /// A wait in seconds, scaled.
    /// - Parameter quiet: Seconds a quiet machine needs.
    /// - Returns: `quiet` times ``factor``.
    public static func seconds(_ quiet: Double) -> Double { quiet * factor }

    /// A wait in whole seconds, scaled and capped (for settings with an upper limit, such as a processor's timeout).
    /// - Parameters:
    ///   - quiet: Seconds a quiet machine needs.
    ///   - limit: The largest value the setting takes.
    /// - Returns: `quiet` times ``factor``, rounded up, at most `limit`.
    public static func wholeSeconds(_ quiet: Int, limit: Int = .max) -> Int {
        min(limit, Int((Double(quiet) * factor).rounded(.up)))
    }

    /// A wait as a `Duration`, scaled.
    /// - Parameter quiet: What a quiet machine needs.
    /// - Returns: `quiet` times ``factor``.
    public static func duration(_ quiet: Duration) -> Duration { quiet * factor }
}
