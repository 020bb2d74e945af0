import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import TypewireCore

/// Builds the Hummingbird application of `typewire serve`: the WebSocket at `/v1/socket`, the REST API,
/// `/healthz`, `/metrics` (Prometheus text), the web demo's files at `/`, and with `--demo` the demo-token
/// endpoint.
public enum TypewireApplication {
    /// Builds the server; it starts serving when run (as a swift-service-lifecycle `Service`).
    /// - Throws: ``TokenAuthorityError`` if the configured secret is too short or the key-set file cannot be
    ///   read; ``PublicFolderError`` if the
    ///   demo is on and its folder of static files is missing.
    /// - Parameters:
    ///   - configuration: Address, limits and intervals.
    ///   - store: The opened store.
    ///   - cluster: With a PostgreSQL store, makes this node one of a cluster: events reach the members
    ///     connected to the other nodes (docs/CLUSTER.md).
    ///   - onServerRunning: Called with the bound port once the server listens (port 0 picks one).
    public static func make(
        configuration: ServerConfiguration, store: any ChatStore, logger: Logger = Logger(label: "typewire"),
        cluster: PostgresClusterBus.Configuration? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> TypewireService {
        let authority = try await TokenAuthority.make(for: configuration, logger: logger)
        let metrics = HubMetrics()
        let node = UUID().uuidString.lowercased()
        let outbox = cluster.map { _ in ClusterOutbox.make(node: node, logger: logger) }
        let hub = Hub(store: store, configuration: configuration, metrics: metrics, logger: logger, cluster: outbox?.0)
        var bus: PostgresClusterBus?
        if let cluster, let outbox {
            guard let postgres = store as? PostgresChatStore else {
                throw StoreError.clusterNeedsPostgres
            }
            guard let secret = configuration.clusterSecret ?? configuration.jwtSecret else { throw StoreError.clusterNeedsSecret }
            bus = PostgresClusterBus(
                client: postgres.client, hub: hub, node: node, outgoing: outbox.1,
                payloads: ClusterPayload(secret: secret), configuration: cluster, logger: logger
            )
        }
        let session = SocketSession(hub: hub, authority: authority, configuration: configuration, logger: logger)

        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/healthz") { _, _ in "ok" }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: .init(string: metrics.registry.emitToString()))
            )
        }
        RESTRoutes(store: store, hub: hub, authority: authority, configuration: configuration).register(on: router)
        if let apiKey = configuration.apiKey {
            ServerAPIRoutes(store: store, hub: hub, key: try APIKey(apiKey), configuration: configuration).register(on: router)
        }
        if configuration.demo {
            router.get("/v1/demo/token") { request, _ -> Response in
                guard let user = request.uri.queryParameters.get("user"),
                      let identity = DemoSeed.users.first(where: { $0.userID == user })
                else {
                    let known = DemoSeed.users.map(\.userID).joined(separator: ", ")
                    return Response(status: .notFound, body: .init(byteBuffer: .init(string: "Unknown demo user; try one of: \(known).")))
                }
                let token = try await authority.sign(identity)
                let body = try JSONEncoder().encode(["token": token, "user": identity.userID, "name": identity.name ?? ""])
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(data: body)))
            }
        }
        let allowedOrigins = Set(configuration.allowedOrigins)
        router.ws(RouterPath(WireProtocol.socketPath)) { request, _ in
            // Browsers send Origin; a page from a foreign site may not open a socket with a user's token.
            // Browsers send the page's Origin (http or https); a page from a foreign site may not open a
            // socket with a user's token. Non-browser clients may send a ws:// origin of their own.
            if !allowedOrigins.isEmpty {
                let browserOrigins = request.headers[values: .origin].filter { !$0.hasPrefix("ws://") && !$0.hasPrefix("wss://") }
                if browserOrigins.contains(where: { !allowedOrigins.contains($0) }) { return .dontUpgrade }
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            try await session.run(inbound: inbound, outbound: outbound)
        }
        if let files = try PublicFiles.middleware(for: configuration, context: BasicWebSocketRequestContext.self) {
            router.add(middleware: PublicFilesGuard())  // FileMiddleware's answers to `//x` and a range past the end
            router.add(middleware: files)  // after the routes: only a request no route answers looks for a file
        }
        var http1 = HTTP1Channel.Configuration(idleTimeout: .milliseconds(configuration.httpIdleTimeout))
        http1.httpDecoder.maxHeaderListSize = configuration.maxHeaderBytes
        http1.httpDecoder.maxHeaderFieldSize = configuration.maxHeaderBytes
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(http1: http1, ws: .init(
            maxFrameSize: configuration.socketFrameLimit,
            autoPing: .enabled(timePeriod: .milliseconds(configuration.pingInterval)),
            closeTimeout: .milliseconds(configuration.closeTimeout)
        ))
        let webSocketResponder = router.buildResponder()
        let application = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedChildChannel(
                    base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channel),
                    maxHeadBytes: configuration.maxHeaderBytes, headTimeout: .milliseconds(configuration.headerTimeout)
                )
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "typewire"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
        return TypewireService(application: application, hub: hub, bus: bus, logger: logger)
    }
}
