import ServiceLifecycle

/// Records the process's heartbeat every ``CheckoutService/Configuration/heartbeatInterval`` and runs
/// ``CheckoutService/recoverAuthorizations(startingUp:)`` at start-up and then every
/// ``CheckoutService/Configuration/recoveryInterval`` until shutdown, so an authorization interrupted by a crash or a
/// silent processor is finished, and owed order passes are issued.
struct CheckoutRecovery: Service {
    let service: CheckoutService

    func run() async throws {
        let configuration = service.configuration
        let tick = min(configuration.heartbeatInterval, configuration.recoveryInterval)
        let clock = ContinuousClock()
        await cancelWhenGracefulShutdown {
            // The heartbeat first, so that another process never takes this one for dead while it starts.
            await service.recordHeartbeat()
            await service.recoverAuthorizations(startingUp: true)
            var lastBeat = clock.now
            var lastRecovery = clock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: tick)
                if clock.now - lastBeat >= configuration.heartbeatInterval - .milliseconds(50) {
                    lastBeat = clock.now
                    await service.recordHeartbeat()
                }
                if clock.now - lastRecovery >= configuration.recoveryInterval - .milliseconds(50) {
                    lastRecovery = clock.now
                    await service.recoverAuthorizations()
                }
            }
        }
    }
}
