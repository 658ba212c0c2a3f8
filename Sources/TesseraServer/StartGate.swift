import ServiceLifecycle
import Synchronization

/// Held shut until the store's migrations have run: on PostgreSQL they run once the client service has started, and
/// the background services that read the tables (pushes, campaigns, webhooks, retention, analytics, checkout
/// recovery) wait for it, instead of logging "relation does not exist" on a new database while the tables are made.
final class StartGate: Sendable {
    private enum State {
        case shut([Int: CheckedContinuation<Void, any Error>])
        case open
    }

    private let state = Mutex(State.shut([:]))
    private let nextWaiter = Atomic<Int>(0)

    /// Lets every waiter, and every later one, through.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard case .shut(let waiters) = state else { return [] }
            state = .open
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func wait() async throws {
        let id = nextWaiter.wrappingAdd(1, ordering: .relaxed).oldValue
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { state in
                    guard case .shut(var waiters) = state else { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    waiters[id] = continuation
                    state = .shut(waiters)
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard case .shut(var waiters) = state, let waiter = waiters.removeValue(forKey: id) else { return nil }
                state = .shut(waiters)
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

/// A service that starts once a ``StartGate`` opens; a shutdown or cancellation before then ends it without starting.
struct AfterStartGate: Service, CustomStringConvertible {
    let gate: StartGate
    let service: any Service

    var description: String { "\(type(of: service))" }

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await gate.wait() }
        } catch is CancellationError {
            return
        }
        try await service.run()
    }
}
