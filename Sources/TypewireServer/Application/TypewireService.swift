import Logging
import ServiceLifecycle

/// The whole server as one swift-service-lifecycle `Service`: the HTTP and WebSocket application, and
/// the hub's own service (the expiry sweep).
///
/// On graceful shutdown (SIGTERM with `typewire serve`) the hub's service stops first and closes every
/// socket with the going-away code (1001); then the HTTP server stops. The store is written statement by
/// statement (each message in one statement), so it is consistent whenever the process stops.
public struct TypewireService: Service {
    let application: any Service
    let hub: Hub
    let bus: PostgresClusterBus?
    let logger: Logger

    public func run() async throws {
        // A service group shuts its services down in reverse order: the hub's before the server's, and
        // the cluster bus last, so the hub's last events still reach the other nodes.
        let services: [any Service] = (bus.map { [$0] } ?? []) + [application, HubService(hub: hub)]
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        try await group.run()
    }
}
