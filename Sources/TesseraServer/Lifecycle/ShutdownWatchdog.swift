import TesseraHTTP
import Foundation
import Logging
import ServiceLifecycle

/// Runs last in the service group, so it hears of a graceful shutdown first: it then starts a plain thread that, when
/// the grace period ends, counts and logs what is still running and cancels the rest of the group, and that exits the
/// process at the hard deadline, whatever the rest of the process is doing (a hung database client, a parked main
/// thread).
struct ShutdownWatchdog: Service {
    let limits: ShutdownLimits
    let activity: ServerActivity
    let logger: Logger
    /// Cancels the rest of the service group: called once the grace period is over and what was left is counted.
    let cancelRest: @Sendable () -> Void
    /// Called at the hard deadline; exits the process (replaced in tests).
    var exit: @Sendable (Int32) -> Never = { Foundation.exit($0) }

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return  // cancelled: the group is going away without a graceful shutdown
        }
        let limits = self.limits
        let activity = self.activity
        let logger = self.logger
        let exit = self.exit
        let cancelRest = self.cancelRest
        logger.notice("shutting down: no new connections; in-flight requests may finish", metadata: [
            "requestsInFlight": "\(activity.requestsInFlight)", "connections": "\(activity.connections)",
            "gracePeriod": "\(limits.gracePeriod)",
        ])
        let thread = Thread {
            Thread.sleep(forTimeInterval: Self.seconds(limits.gracePeriod))
            let left = activity.requestsInFlight
            if left > 0 {
                activity.recordAbandoned(left)
                logger.warning("shutdown grace period over: cancelling what is left", metadata: [
                    "requestsInFlight": "\(left)", "connections": "\(activity.connections)",
                ])
            }
            cancelRest()
            Thread.sleep(forTimeInterval: Self.seconds(limits.hardDeadline - limits.gracePeriod) + 0.001)
            logger.error("shutdown deadline passed: exiting, abandoning what is left", metadata: [
                "requestsAbandoned": "\(activity.requestsInFlight)", "connectionsAbandoned": "\(activity.connections)",
            ])
            exit(1)
        }
        thread.name = "tessera.shutdown-watchdog"
        thread.start()
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }
}
