public import Hummingbird
public import Logging
import ServiceLifecycle
import Synchronization
import TesseraHTTP
import UnixSignals

extension TesseraServer {
    /// Runs an application made by ``makeApplication(configuration:metrics:logger:now:)`` until SIGTERM or SIGINT,
    /// then shuts down within the configuration's ``ShutdownLimits``: no new connections, in-flight requests finish
    /// within the grace period, what is left is cancelled, and the process exits at the hard deadline regardless.
    /// - Parameters:
    ///   - app: The application.
    ///   - configuration: The configuration it was made from.
    ///   - logger: The server's logger.
    /// - Throws: When a service fails; ``ShutdownError`` when requests were still in flight at the end of the grace
    ///   period and were cancelled.
    public static func run(_ app: some ApplicationProtocol, configuration: ServerConfiguration, logger: Logger) async throws {
        let limits = configuration.shutdown
        // The watchdog ends the grace period: it counts what is still in flight, then cancels the group. A timer of
        // the group's own would race it, and on a busy machine could close requests before they were counted.
        let cancellation = GroupCancellation()
        var group = ServiceGroupConfiguration(
            services: [
                .init(service: app),
                .init(
                    service: ShutdownWatchdog(
                        limits: limits, activity: configuration.activity, logger: logger,
                        cancelRest: { cancellation.cancel() }),
                    successTerminationBehavior: .ignore),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumCancellationDuration = max(.milliseconds(1), limits.hardDeadline - limits.gracePeriod)
        let serviceGroup = ServiceGroup(configuration: group)
        let running = Task { try await serviceGroup.run() }
        cancellation.set(running)
        try await withTaskCancellationHandler {
            try await running.value
        } onCancel: {
            running.cancel()
        }
        let abandoned = configuration.activity.abandonedAtShutdown
        if abandoned > 0 {
            throw ShutdownError(requestsAbandoned: abandoned)
        }
    }
}

/// The running service group's task, cancelled by the shutdown watchdog once the grace period is over.
private final class GroupCancellation: Sendable {
    private let state = Mutex<(task: Task<Void, any Error>?, cancelled: Bool)>((nil, false))

    func set(_ running: Task<Void, any Error>) {
        if state.withLock({ state in
            state.task = running
            return state.cancelled
        }) {
            running.cancel()
        }
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }
}
