import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Watches, from a thread of its own, that Swift's global executor still runs jobs and that its timers (the
/// continuous clock, as `Task.sleep(for:)` uses, and the suspending clock) still fire. A test process whose executor
/// or timers stop would otherwise wait for ever with every thread idle. When a probe has not answered for
/// `TESSERA_TEST_STALL_SECONDS` (180 by default) while the process used under 3 s of CPU in the last minute (a busy
/// executor answers late too, but keeps the process on the CPU), the watchdog writes which one stopped, with the marker
/// `tessera-test-stall`, to standard error and ends the process with status 86, so the run fails at once and says
/// why. Started by the test helpers most tests use; starting it again does nothing.
public enum ExecutorWatchdog {
    /// The exit status of a stalled run.
    public static let exitStatus: Int32 = 86

    private static let started = Atomic<Bool>(false)
    private static let executorTick = Atomic<Int64>(0)
    private static let continuousTick = Atomic<Int64>(0)
    private static let suspendingTick = Atomic<Int64>(0)
    private static let dispatchTick = Atomic<Int64>(0)
    private static let dispatchTimerTick = Atomic<Int64>(0)

    /// Starts the watchdog once per process.
    public static func start() {
        guard !started.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let limit = Int64(ProcessInfo.processInfo.environment["TESSERA_TEST_STALL_SECONDS"].flatMap(Int64.init) ?? 180)
        guard limit > 0 else { return }
        let now = uptime()
        executorTick.store(now, ordering: .relaxed)
        continuousTick.store(now, ordering: .relaxed)
        suspendingTick.store(now, ordering: .relaxed)
        dispatchTick.store(now, ordering: .relaxed)
        dispatchTimerTick.store(now, ordering: .relaxed)
        Task.detached {
            while true {
                try? await Task.sleep(for: .seconds(1))
                continuousTick.store(uptime(), ordering: .relaxed)
            }
        }
        Task.detached {
            while true {
                try? await SuspendingClock().sleep(for: .seconds(1))
                suspendingTick.store(uptime(), ordering: .relaxed)
            }
        }
        let thread = Thread {
            var cpuSamples: [(at: Int64, seconds: Double)] = []
            while true {
                Thread.sleep(forTimeInterval: 2)
                Task.detached { executorTick.store(uptime(), ordering: .relaxed) }
                DispatchQueue.global().async { dispatchTick.store(uptime(), ordering: .relaxed) }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) {
                    dispatchTimerTick.store(uptime(), ordering: .relaxed)
                }
                let now = uptime()
                let ages = [("the global executor (a new task)", now - executorTick.load(ordering: .relaxed)),
                            ("continuous-clock timers (Task.sleep(for:))", now - continuousTick.load(ordering: .relaxed)),
                            ("suspending-clock timers", now - suspendingTick.load(ordering: .relaxed)),
                            ("Dispatch's global queue", now - dispatchTick.load(ordering: .relaxed)),
                            ("Dispatch's timers (asyncAfter)", now - dispatchTimerTick.load(ordering: .relaxed))]
                // A busy executor (long synchronous tests on every cooperative thread) answers late but keeps the
                // process on the CPU; a stalled one leaves it idle. Only a late answer from an idle process counts.
                cpuSamples.append((now, processCPUSeconds()))
                cpuSamples.removeAll { now - $0.at > 60 }
                let recentCPU = cpuSamples.last!.seconds - cpuSamples.first!.seconds
                let stalled = ages.filter { $0.1 >= limit }
                guard !stalled.isEmpty, now - cpuSamples.first!.at >= 50, recentCPU < 3 else { continue }
                let report = "tessera-test-stall: the process was idle (\(Int(recentCPU)) s of CPU in the last minute) and nothing ran for \(limit) s in "
                    + stalled.map { "\($0.0): \($0.1) s" }.joined(separator: "; ")
                    + "; still running: " + ages.filter { $0.1 < limit }.map(\.0).joined(separator: ", ")
                    + ". Ending the test process.\n"
                FileHandle.standardError.write(Data(report.utf8))
                if let dump = ProcessInfo.processInfo.environment["TESSERA_TEST_STALL_DUMP"] {
                    // Every thread's stack, for the one debugging the stall (needs gdb).
                    _ = system("gdb -p \(getpid()) -batch -ex 'thread apply all bt 30' > '\(dump)' 2>&1")
                }
                _exit(exitStatus)
            }
        }
        thread.name = "executor-watchdog"
        thread.start()
    }

    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func uptime() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec)
    }
}
