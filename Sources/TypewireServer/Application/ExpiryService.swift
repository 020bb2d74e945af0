import ServiceLifecycle

/// Runs the hub's expiry sweep for as long as the server runs.
struct ExpiryService: Service {
    let hub: Hub

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await hub.runExpiry()
        }
    }
}
