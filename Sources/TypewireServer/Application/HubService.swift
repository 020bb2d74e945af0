import ServiceLifecycle

/// Runs the hub's expiry sweep for as long as the server runs; on graceful shutdown (SIGTERM) it closes
/// every socket with the going-away code before the HTTP server stops, then lets the cluster bus (if
/// any) say goodbye to the other nodes.
struct HubService: Service {
    let hub: Hub

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await hub.runExpiry()
        }
        await hub.closeAll(reason: "server shutting down")
        await hub.leaveCluster()
    }
}
