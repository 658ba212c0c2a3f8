import Dispatch
import Synchronization
public import NIOCore
import NIOPosix

/// One NIO event loop thread as a Swift task executor: tasks that prefer it run their jobs on the loop, as every task
/// does under `tessera serve`, which makes the event loops Swift's global executor (a job stays on the loop it was
/// enqueued from). A task that blocks its thread there stops everything else the loop runs, which
/// ``answers(within:)`` detects.
public final class EventLoopExecutor: TaskExecutor {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// The loop the jobs run on.
    public let loop: any EventLoop
    /// The loop's group, for servers and clients whose channels should live on the same thread.
    public var eventLoopGroup: any EventLoopGroup { group }

    /// Starts the loop's thread.
    public init() {
        loop = group.next()
    }

    /// Runs a job on the loop.
    /// - Parameter job: The job Swift's runtime hands over.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Queues `work` on the loop, behind whatever it runs now.
    /// - Parameter work: The work.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        loop.execute(work)
    }

    /// Starts `body` as a task whose jobs run on the loop.
    /// - Parameter body: The work.
    /// - Returns: The task, to await its value.
    public func task<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        Task(executorPreference: self) { try await body() }
    }

    /// Whether the loop runs other work (a probe submitted now) within `seconds`: false when something blocks its
    /// thread. The wait itself happens off Swift's cooperative threads.
    /// - Parameter seconds: How long to wait for the probe.
    /// - Returns: Whether the probe ran in time.
    public func answers(within seconds: Double) async throws -> Bool {
        let ran = DispatchSemaphore(value: 0)
        loop.execute { ran.signal() }
        return try await offCooperativePool { ran.wait(timeout: .now() + seconds) == .success }
    }

    /// Stops the loop's thread; call it once nothing runs on the loop any more.
    public func shutdown() async throws {
        try await group.shutdownGracefully()
    }

    /// Sleeps on the loop's own timer, so the wake-up needs nothing but the loop's thread (not Swift's cooperative
    /// threads, which the suite's synchronous tests may all be holding).
    /// - Parameter duration: How long.
    /// - Throws: When the task is cancelled meanwhile.
    public func sleep(for duration: Duration) async throws {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        let scheduled = loop.scheduleTask(in: .nanoseconds(nanoseconds)) {}
        try await withTaskCancellationHandler {
            try await scheduled.futureResult.get()
        } onCancel: {
            scheduled.cancel()
        }
    }

    /// Runs `body` on a thread of its own: `body` and every child task it starts (the tasks of a server run inside
    /// it, its handlers included) run their jobs on a new loop, not on Swift's cooperative threads. The suite runs
    /// hundreds of synchronous tests (a CLI run, a signature) on those few threads, one job each, first in first out;
    /// a job queued behind them waits until they are done, which for a server answering over a socket means its
    /// client's timeout. The loop is stopped when `body` returns.
    /// - Parameter body: The work, given the executor (to serve on its loop, or sleep on its timer).
    /// - Returns: What `body` returns.
    public static func run<T: Sendable>(_ body: @Sendable (EventLoopExecutor) async throws -> T) async throws -> T {
        let executor = EventLoopExecutor()
        let result: Result<T, any Error>
        do {
            result = .success(try await withTaskExecutorPreference(executor) { try await body(executor) })
        } catch {
            result = .failure(error)
        }
        try await executor.shutdown()
        return try result.get()
    }
}

/// Holds every thread of NIO's shared blocking pool (`NIOThreadPool.singleton`, where the server moves blocking work
/// off its event loops) until ``release()``, so work sent there waits while a test watches the event loop. Only one
/// test at a time may hold the pool: two holders each holding some of its threads would wait for each other.
///
/// The pool is the whole test process's: every pass signed in process (the checkout tests' order passes) waits while
/// it is held. The holding test gives it back only when its task runs again, which in a full run can be minutes later
/// (its task waits behind the suite's synchronous tests for one of Swift's cooperative threads), long past the
/// 20 s in which another test's client gives up on an answer. So the hold also ends on its own, a few seconds
/// (``TestTime``) after it was taken, on a Dispatch timer.
public final class BlockingPoolHold: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let count = NIOSingletons.blockingPoolThreadCountSuggestion
    private let done = Mutex(false)

    /// Occupies the pool's threads, waiting (off Swift's cooperative threads, up to 60 s) until all are held.
    /// - Parameter seconds: The longest the hold lasts, on a quiet machine (scaled by ``TestTime``).
    /// - Throws: `CancellationError` when the pool's threads were not all free within 60 s.
    public init(atMost seconds: Double = 1) async throws {
        let holding = DispatchSemaphore(value: 0)
        let released = self.released
        for _ in 0..<count {
            NIOThreadPool.singleton.submit { _ in
                holding.signal()
                released.wait()
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + TestTime.seconds(seconds)) { [self] in release() }
        let count = self.count
        let allHeld = try await offCooperativePool {
            (0..<count).allSatisfy { _ in holding.wait(timeout: .now() + 60) == .success }
        }
        if !allHeld {
            release()
            throw CancellationError()
        }
    }

    /// Gives the pool's threads back; safe to call more than once.
    public func release() {
        guard !done.withLock({ done in defer { done = true }; return done }) else { return }
        for _ in 0..<count { released.signal() }
    }
}
