import Synchronization

/// What the server is doing right now: open connections and requests in flight, counted by the connection handlers;
/// read by the connection cap and by shutdown to say what it abandoned.
public final class ServerActivity: Sendable {
    private let open = Atomic<Int>(0)
    private let inFlight = Atomic<Int>(0)
    private let refusedTotal = Atomic<Int>(0)
    private let abandoned = Atomic<Int>(0)

    /// Creates counters at zero.
    public init() {}

    /// Open client connections.
    public var connections: Int { open.load(ordering: .relaxed) }
    /// Requests received and not yet answered.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }
    /// Connections refused at the cap so far.
    public var refusedConnections: Int { refusedTotal.load(ordering: .relaxed) }

    /// Requests still in flight when the shutdown grace period ended (cancelled, not answered).
    public var abandonedAtShutdown: Int { abandoned.load(ordering: .relaxed) }

    /// Records how many requests the shutdown cancelled (the shutdown watchdog's count at the end of the grace period).
    /// - Parameter count: The requests still in flight.
    public func recordAbandoned(_ count: Int) {
        abandoned.store(count, ordering: .relaxed)
    }

    /// Takes a place for a new connection, or returns `false` (counting a refusal) at `maximum`.
    func acquireConnection(maximum: Int) -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < maximum {
            let (exchanged, original) = open.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        refusedTotal.add(1, ordering: .relaxed)
        return false
    }

    func releaseConnection() {
        open.subtract(1, ordering: .acquiringAndReleasing)
    }

    func requestStarted() {
        inFlight.add(1, ordering: .relaxed)
    }

    func requestsEnded(_ count: Int = 1) {
        inFlight.subtract(count, ordering: .relaxed)
    }
}
