import Synchronization

/// Takes this process's campaign batch writes in the order they arrive, each until it has locked its campaign's row.
///
/// A batch's transaction first finds the pushes it owes, then moves the campaign's cursor, which locks the campaign
/// row until the commit. The runner hands a batch over while the one before it is still being written, so that the
/// second finds its pushes while the first commits; but only a batch whose cursor move comes after the first one's
/// finds the cursor where it expects it. Holding the turn from the start of a batch's transaction until its cursor
/// move has run (or until the transaction ends, whichever comes first) keeps that order: the next batch's work
/// begins only behind the campaign row's lock. Batches of other processes are not ordered by it, and need not be:
/// of two processes writing one batch, the cursor lets one write it.
final class CampaignWriteTurns: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    /// One write's turn: ended once, by its first ``end()``.
    final class Turn: Sendable {
        private let turns: CampaignWriteTurns
        private let ended = Atomic<Bool>(false)

        fileprivate init(turns: CampaignWriteTurns) {
            self.turns = turns
        }

        /// Passes the turn on to the next waiting write; later calls do nothing.
        func end() {
            guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
            turns.passOn()
        }
    }

    private let state = Mutex(State())

    /// Waits for the writes that asked before to end their turns, then takes it.
    func take() async -> Turn {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        return Turn(turns: self)
    }

    private func passOn() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
