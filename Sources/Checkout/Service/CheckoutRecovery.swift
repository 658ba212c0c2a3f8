import ServiceLifecycle

/// Runs ``CheckoutService/recoverAuthorizations()`` at start-up and then every interval until shutdown, so an
/// authorization interrupted by a crash or a silent processor is finished, and owed order passes are issued.
struct CheckoutRecovery: Service {
    let service: CheckoutService
    let interval: Duration

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await service.recoverAuthorizations()
                try? await Task.sleep(for: interval)
            }
        }
    }
}
