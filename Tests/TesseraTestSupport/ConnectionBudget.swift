import Synchronization

/// A number of database connections shared by the tests of one process: a test takes what its pools will open before
/// opening them and gives it back once they are closed; a test that finds too few free waits (suspended, holding no
/// thread) until enough come back, first come first served. So however many tests run at once, their pools together
/// stay within what the server accepts, instead of the server refusing the newest connections ("too many clients")
/// until their pools give up.
public final class ConnectionBudget: Sendable {
    private struct State {
        var free: Int
        var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// How many connections the budget holds.
    public let total: Int
    private let state: Mutex<State>

    /// Creates a budget.
    /// - Parameter total: How many connections it holds.
    public init(total: Int) {
        self.total = total
        state = Mutex(State(free: total))
    }

    /// Runs `body` holding `count` connections of the budget (at most the whole budget), waiting for them first.
    /// - Parameters:
    ///   - count: The connections `body` opens at most.
    ///   - body: The work; the connections it opened must be closed when it returns.
    /// - Returns: What `body` returns.
    public func withConnections<T>(_ count: Int, _ body: () async throws -> T) async throws -> T {
        let count = min(max(count, 0), total)
        await take(count)
        defer { give(count) }
        return try await body()
    }

    private func take(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state -> Bool in
                guard state.waiting.isEmpty, state.free >= count else {
                    state.waiting.append((count, continuation))
                    return false
                }
                state.free -= count
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func give(_ count: Int) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.free += count
            var ready: [CheckedContinuation<Void, Never>] = []
            while let first = state.waiting.first, first.count <= state.free {
                state.free -= first.count
                ready.append(state.waiting.removeFirst().continuation)
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
