public import Hummingbird
public import Logging
import ServiceLifecycle
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
        var group = ServiceGroupConfiguration(
            services: [
                .init(service: app),
                .init(
                    service: ShutdownWatchdog(limits: limits, activity: configuration.activity, logger: logger),
                    successTerminationBehavior: .ignore),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // A little after the watchdog's own grace timer, so it counts what is left before cancellation closes it.
        group.maximumGracefulShutdownDuration = limits.gracePeriod + .milliseconds(100)
        group.maximumCancellationDuration = max(.milliseconds(1), limits.hardDeadline - limits.gracePeriod - .milliseconds(100))
        try await ServiceGroup(configuration: group).run()
        let abandoned = configuration.activity.abandonedAtShutdown
        if abandoned > 0 {
            throw ShutdownError(requestsAbandoned: abandoned)
        }
    }
}
