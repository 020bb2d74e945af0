import Logging
import NIOCore
import ServiceLifecycle

/// The whole server as one swift-service-lifecycle `Service`: the HTTP and WebSocket application, and
/// the hub's own service (the expiry sweep).
///
/// On graceful shutdown (SIGTERM with `typewire serve`) the HTTP server stops first: it stops listening, so
/// a client that reconnects meanwhile is refused at once rather than taken in and closed again, and every
/// connection is asked to end (Hummingbird's quiescing): each socket closes with the going-away code
/// (1001), and the server returns once all of them are closed. Then the hub's service stops, and the
/// cluster bus last. The store is written statement by
/// statement (each message in one statement), so it is consistent whenever the process stops.
public struct TypewireService: Service {
    let application: any Service
    /// The loop the HTTP server's own tasks prefer (``ServerService``).
    let serverLoop: any EventLoop
    let sockets: OpenSockets
    let hub: Hub
    let bus: (any Service)?
    let webhooks: WebhookService?
    let logger: Logger

    public func run() async throws {
        // A service group shuts its services down in reverse order: the server's (no new connection, every
        // socket closed) before the hub's, and the cluster bus last, so the hub's last events (the sockets'
        // goodbyes) still reach the other nodes. The webhooks' dispatcher stops after the hub, before the bus.
        let services: [any Service] =
            (bus.map { [$0] } ?? []) + (webhooks.map { [$0] } ?? []) + [
                HubService(hub: hub, logger: logger),
                ServerService(application: application, loop: serverLoop, sockets: sockets, logger: logger),
            ]
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        try await group.run()
    }
}

/// The HTTP server, ended once its sockets have closed too: Hummingbird's `run` returns when its listener and
/// its HTTP connections are done, and the sockets (channel handlers of ours) may still be saying goodbye.
///
/// Its task, and the tasks Hummingbird adds for each connection, prefer an event loop to Swift's global
/// executor (``EventLoopTaskExecutor/run(preferring:_:)``); each connection's task moves on to its own loop.
struct ServerService: Service {
    let application: any Service
    let loop: any EventLoop
    let sockets: OpenSockets
    let logger: Logger

    func run() async throws {
        try await EventLoopTaskExecutor.run(preferring: loop) { try await application.run() }
        logger.info("Shutting down: stopped listening; waiting for the open sockets to close", metadata: ["sockets": "\(sockets.count)"])
        await sockets.allClosed()
        logger.info("Shutting down: every socket closed")
    }
}
