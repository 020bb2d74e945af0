import Logging
import ServiceLifecycle

/// Runs the hub's expiry sweep (and with `--stage-metrics` the loops' lag probe) for as long as the server
/// runs; on graceful shutdown (SIGTERM), once the HTTP server has stopped, it closes any socket still
/// registered with the going-away code, then lets the cluster bus (if any) say goodbye to the other nodes.
struct HubService: Service {
    let hub: Hub
    let logger: Logger

    func run() async throws {
        hub.metrics.stages?.startProbing(hub.eventLoops)
        defer { hub.metrics.stages?.stopProbing() }
        await cancelWhenGracefulShutdown {
            await hub.runExpiry()
        }
        await hub.shutDown()
        hub.leaveCluster()
        logger.info("Shutting down: the hub has stopped")
    }
}
