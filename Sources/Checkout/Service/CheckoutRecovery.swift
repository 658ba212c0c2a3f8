import ServiceLifecycle

/// Records the process's heartbeat every ``CheckoutService/Configuration/heartbeatInterval`` and runs
/// ``CheckoutService/recoverAuthorizations(startingUp:)`` at start-up and then every
/// ``CheckoutService/Configuration/recoveryInterval`` until shutdown, so an authorization interrupted by a crash or a
/// silent processor is finished, and owed order passes are issued; and deletes abandoned carts at start-up and then
/// every ``CheckoutService/Configuration/abandonedSessionSweepInterval``.
struct CheckoutRecovery: Service {
    let service: CheckoutService

    /// The heartbeat and the recovery run as two tasks: a recovery round can wait on a slow processor for half a
    /// minute and more per payment, and a heartbeat held up behind it would let another process take this one for
    /// dead and take over authorizations it is still waiting on.
    func run() async throws {
        let configuration = service.configuration
        let service = self.service
        await cancelWhenGracefulShutdown {
            // The heartbeat first, so that another process never takes this one for dead while it starts.
            await service.recordHeartbeat()
            await withDiscardingTaskGroup { group in
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: configuration.heartbeatInterval)
                        guard !Task.isCancelled else { return }
                        await service.recordHeartbeat()
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        await service.deleteAbandonedSessions()
                        try? await Task.sleep(for: configuration.abandonedSessionSweepInterval)
                    }
                }
                group.addTask {
                    await service.recoverAuthorizations(startingUp: true)
                    while !Task.isCancelled {
                        try? await Task.sleep(for: configuration.recoveryInterval)
                        guard !Task.isCancelled else { return }
                        await service.recoverAuthorizations()
                    }
                }
            }
        }
    }
}
