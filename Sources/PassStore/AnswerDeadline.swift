import Synchronization

/// Waits for a store operation at most a given time.
///
/// A PostgreSQL server that crashes (killed, `pg_ctl -m immediate`) while a statement is in flight can leave that
/// statement without an answer or an error in the client for good, although its connection is closed and the pool
/// opens others: whatever awaits it waits for ever. Long-running work that must go on after an outage (a campaign's
/// batches) waits through this instead: past the deadline it gets ``PassStoreError/unavailable(_:)`` and tries again
/// from what the database committed; the operation itself is cancelled and left to end when it can.
package enum AnswerDeadline {
    /// Runs `operation`, and throws when it has not ended within `seconds` or when the caller is cancelled.
    /// - Parameters:
    ///   - seconds: The longest wait.
    ///   - what: The operation, for the error (`"campaign batch write"`).
    ///   - operation: The work; runs in a task of its own.
    /// - Returns: What `operation` returned.
    /// - Throws: What `operation` threw, ``PassStoreError/unavailable(_:)`` past the deadline, or `CancellationError`.
    package static func run<T: Sendable>(
        seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let waiter = Waiter<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                guard waiter.set(continuation) else { return }  // cancelled before the wait began
                let work = Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await operation()) } catch { result = .failure(error) }
                    waiter.finish(with: result)
                }
                let timer = Task {
                    try? await Task.sleep(for: .seconds(seconds))
                    guard !Task.isCancelled else { return }
                    if waiter.finish(with: .failure(PassStoreError.unavailable(
                        "\(what): no answer from the database in \(Int(seconds)) s"))) {
                        work.cancel()
                    }
                }
                waiter.onFinish { timer.cancel() }
            }
        } onCancel: {
            waiter.finish(with: .failure(CancellationError()))
        }
    }

    /// The continuation, resumed once by whichever of the work, the deadline and cancellation comes first.
    private final class Waiter<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            /// A result that came before the continuation was set (cancellation before the wait began).
            var early: Result<T, any Error>?
            var finished = false
            var onFinish: (@Sendable () -> Void)?
        }

        private let state = Mutex(State())

        /// Sets the continuation; `false` when a result came first (the continuation is resumed with it).
        func set(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
            let early = state.withLock { state -> Result<T, any Error>? in
                guard let early = state.early else {
                    state.continuation = continuation
                    return nil
                }
                state.early = nil
                return early
            }
            guard let early else { return true }
            continuation.resume(with: early)
            return false
        }

        func onFinish(_ action: @escaping @Sendable () -> Void) {
            let now = state.withLock { state -> Bool in
                guard !state.finished else { return true }
                state.onFinish = action
                return false
            }
            if now { action() }
        }

        /// Resumes the wait with `result` unless it was resumed already; returns whether this call did.
        @discardableResult
        func finish(with result: Result<T, any Error>) -> Bool {
            let (continuation, action, first) = state.withLock { state in
                guard !state.finished else {
                    return (CheckedContinuation<T, any Error>?.none, (@Sendable () -> Void)?.none, false)
                }
                state.finished = true
                let continuation = state.continuation
                state.continuation = nil
                if continuation == nil { state.early = result }
                let action = state.onFinish
                state.onFinish = nil
                return (continuation, action, true)
            }
            continuation?.resume(with: result)
            action?()
            return first
        }
    }
}
