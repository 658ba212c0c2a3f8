import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long `tessera serve` waits on a client and how many connections it holds at once.
///
/// A connection must send a complete request head within ``headerReadTimeout`` of opening, its body within
/// ``bodyReadTimeout`` of the head, and its next request within ``idleTimeout`` of the last response; otherwise it is
/// closed. Past ``maximumConnections`` open connections, new ones are closed as soon as they are accepted, so the
/// process never runs out of file descriptors and keeps answering the connections it has.
public struct ConnectionLimits: Sendable, Equatable {
    /// Longest wait for the next request on a kept-alive connection.
    public var idleTimeout: Duration
    /// Longest wait for a new connection's first complete request head.
    public var headerReadTimeout: Duration
    /// Longest wait between a request's head and the end of its body.
    public var bodyReadTimeout: Duration
    /// Most connections open at once; more are refused (closed on accept).
    public var maximumConnections: Int
    /// The largest request body any route takes, when known: a request that declares more and sends
    /// `Expect: 100-continue` is not told to continue, so its client does not send a body that will be refused (the
    /// route answers 413 on the declared length).
    public var largestBody: Int?

    /// Creates limits.
    /// - Parameters:
    ///   - idleTimeout: Longest wait for the next request on a kept-alive connection (default 60 s).
    ///   - headerReadTimeout: Longest wait for a connection's first complete request head (default 30 s).
    ///   - bodyReadTimeout: Longest wait between a request's head and the end of its body (default 60 s).
    ///   - maximumConnections: Most connections at once (default: derived from `RLIMIT_NOFILE`).
    public init(
        idleTimeout: Duration = .seconds(60), headerReadTimeout: Duration = .seconds(30),
        bodyReadTimeout: Duration = .seconds(60), maximumConnections: Int? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.headerReadTimeout = headerReadTimeout
        self.bodyReadTimeout = bodyReadTimeout
        self.maximumConnections = maximumConnections ?? Self.defaultMaximumConnections()
    }

    /// The process's soft limit on open file descriptors (`RLIMIT_NOFILE`), or `nil` when it is unlimited or unknown.
    public static var descriptorLimit: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Descriptors kept back for what is not a client connection: the listening socket, event loops (epoll and
    /// wake-up descriptors), the database, log output, templates and certificates being read.
    public static let reservedDescriptors = 64

    /// The default cap: 90 % of the descriptors left after ``reservedDescriptors`` and four per CPU (event loops and
    /// the blocking pool), at least 8; 10 000 when the limit is unknown.
    /// - Parameter descriptorLimit: The limit to derive from (the process's own by default).
    /// - Returns: The number of connections.
    public static func defaultMaximumConnections(descriptorLimit: Int? = Self.descriptorLimit) -> Int {
        guard let descriptorLimit else { return 10_000 }
        let spare = descriptorLimit - reservedDescriptors - 4 * System.coreCount
        return max(8, spare * 9 / 10)
    }
}
