internal import GRDB
import PassStore
import Synchronization

/// Group commit for one kind of small write: the writes that arrive while one transaction is being written go
/// together in the next, each in a savepoint of its own (or none, for writes that refuse before they write: see
/// ``Isolation``).
///
/// SQLite has one writer. When many clients write at once (64 devices registering), one transaction each means one
/// `BEGIN`/`COMMIT`, one write of every page it touched to the log and one turn of the writer's queue per write; the
/// log's checkpoints come as often. Written together, the shared pages (the event log's last page, the counters) are
/// written once per batch, and the queue is taken once. Each caller still gets its own answer or error, only after
/// the transaction holding its write has committed: a write is as durable as it was alone, and a write that throws
/// rolls back its own savepoint, not the others'.
///
/// One write at a time is in flight: while a batch is written, the next one gathers. At low load a batch is one
/// write, at the cost of one task start.
final class WriteBatcher<Item: Sendable, Output: Sendable>: Sendable {
    private struct Waiting {
        var item: Item
        var continuation: CheckedContinuation<Output, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var writing = false
    }

    /// How a write that throws is kept from the others in its batch.
    enum Isolation {
        /// Each write in a savepoint of its own: one that throws is rolled back alone.
        case savepoints
        /// The write throws a ``PassStore/PassStoreError`` only before it changed anything (its checks come first),
        /// so such a refusal needs no rollback: no savepoint is taken (two statements less per write). Any other
        /// error rolls the whole batch back, and every write of it fails with that error.
        case refusalsBeforeWrites
    }

    private let pool: DatabasePool
    private let maximumBatch: Int
    private let isolation: Isolation
    private let apply: @Sendable (Item, Database) throws -> Output
    private let finish: (@Sendable ([Item], [Result<Output, any Error>], Database) throws -> Void)?
    private let state = Mutex(State())

    /// - Parameters:
    ///   - pool: The database whose writer the batches go through.
    ///   - maximumBatch: The most writes in one transaction.
    ///   - isolation: How a write that throws is kept from the others.
    ///   - apply: One write, inside the batch's transaction.
    ///   - finish: What the batch writes once after its writes, in the same transaction, given each write's outcome
    ///     (what the writes share, written once). When it throws, the whole batch rolls back and every write of it
    ///     fails with that error.
    init(pool: DatabasePool, maximumBatch: Int = 256, isolation: Isolation = .savepoints,
         apply: @escaping @Sendable (Item, Database) throws -> Output,
         finish: (@Sendable ([Item], [Result<Output, any Error>], Database) throws -> Void)? = nil) {
        self.pool = pool
        self.maximumBatch = max(1, maximumBatch)
        self.isolation = isolation
        self.apply = apply
        self.finish = finish
    }

    /// Writes `item` with whatever else is waiting, and answers once that transaction has committed.
    func write(_ item: Item) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.waiting.append(Waiting(item: item, continuation: continuation))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            if start { Task { await self.drain() } }
        }
    }

    /// Writes batches until nothing is waiting.
    private func drain() async {
        while true {
            let batch: [Waiting] = state.withLock { state in
                let batch = Array(state.waiting.prefix(maximumBatch))
                state.waiting.removeFirst(batch.count)
                if batch.isEmpty { state.writing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            let items = batch.map(\.item)
            let apply = self.apply
            let isolation = self.isolation
            let finish = self.finish
            do {
                let outcomes: [Result<Output, any Error>] = try await pool.write { db in
                    let outcomes: [Result<Output, any Error>] = try items.map { item in
                        if isolation == .refusalsBeforeWrites {
                            do {
                                return .success(try apply(item, db))
                            } catch let refusal as PassStoreError {
                                return .failure(refusal)
                            }
                        }
                        var outcome: Result<Output, any Error>?
                        try db.inSavepoint {
                            do {
                                outcome = .success(try apply(item, db))
                                return .commit
                            } catch {
                                outcome = .failure(error)
                                return .rollback
                            }
                        }
                        return outcome ?? .failure(PassStoreError.unavailable("a batched write gave no outcome"))
                    }
                    try finish?(items, outcomes, db)
                    return outcomes
                }
                for (waiting, outcome) in zip(batch, outcomes) {
                    waiting.continuation.resume(with: outcome.mapError(Self.storeError))
                }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: Self.storeError(error)) }
            }
        }
    }

    /// Database errors become ``PassStore/PassStoreError``, as the store's other writes give them.
    private static func storeError(_ error: any Error) -> any Error {
        error is PassStoreError ? error : PassStoreError.unavailable("\(error)")
    }
}
