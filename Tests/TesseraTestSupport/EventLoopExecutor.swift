import Dispatch
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
}

/// Holds every thread of NIO's shared blocking pool (`NIOThreadPool.singleton`, where the server moves blocking work
/// off its event loops) until ``release()``, so work sent there waits while a test watches the event loop. Only one
/// test at a time may hold the pool: two holders each holding some of its threads would wait for each other.
public final class BlockingPoolHold: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let count = NIOSingletons.blockingPoolThreadCountSuggestion

    /// Occupies the pool's threads, waiting (off Swift's cooperative threads, up to 60 s) until all are held.
    /// - Throws: `CancellationError` when the pool's threads were not all free within 60 s.
    public init() async throws {
        let holding = DispatchSemaphore(value: 0)
        let released = self.released
        for _ in 0..<count {
            NIOThreadPool.singleton.submit { _ in
                holding.signal()
                released.wait()
            }
        }
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
        for _ in 0..<count { released.signal() }
    }
}
