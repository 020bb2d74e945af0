import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import TypewireCore

/// Builds the Hummingbird application of `typewire serve`: the WebSocket at `/v1/socket`, the REST API,
/// `/healthz`, `/metrics` (Prometheus text), the web demo's files at `/`, and with `--demo` the demo-token
/// endpoint.
public enum TypewireApplication {
    /// Builds the server; it starts serving when run (as a swift-service-lifecycle `Service`).
    /// - Throws: ``ConfigurationError`` for a value it cannot run with (``ServerConfiguration/validate()``);
    ///   ``TokenAuthorityError`` if the configured secret is too short or the key-set file cannot be read;
    ///   ``PublicFolderError`` if the demo is on and its folder of static files is missing.
    /// - Parameters:
    ///   - configuration: Address, limits and intervals.
    ///   - store: The opened store.
    ///   - cluster: With a PostgreSQL store, makes this node one of a cluster: events reach the members
    ///     connected to the other nodes (docs/CLUSTER.md).
    ///   - onServerRunning: Called with the bound port once the server listens (port 0 picks one).
    public static func make(
        configuration: ServerConfiguration, store: any ChatStore, logger: Logger = Logger(label: "typewire"),
        cluster: ClusterConfiguration? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> TypewireService {
        try configuration.validate()
        let authority = try await TokenAuthority.make(for: configuration, logger: logger)
        let metrics = HubMetrics(timesStages: configuration.stageMetrics)
        let node = UUID().uuidString.lowercased()
        // Built once per server and never shut down: the process ends with it.
        let group = configuration.threads.map { MultiThreadedEventLoopGroup(numberOfThreads: $0) } ?? MultiThreadedEventLoopGroup.singleton
        var clusterParts: ClusterParts?
        if let cluster {
            guard let postgres = store as? PostgresChatStore else { throw ConfigurationError.clusterNeedsPostgres }
            guard let secret = configuration.auth.clusterSecret ?? configuration.auth.jwtSecret else {
                throw ConfigurationError.clusterNeedsSecret
            }
            clusterParts = try ClusterParts(
                cluster, client: postgres.client, node: node, payloads: ClusterPayload(secret: secret, node: node),
                metrics: metrics.cluster,
                group: group, logger: logger)
        }
        var webhooks: WebhookService?
        if configuration.webhooks.isEnabled {
            guard let outbox = store as? any WebhookOutbox else { throw ConfigurationError.webhooksNeedOutbox }
            webhooks = try WebhookService(
                configuration: configuration.webhooks, outbox: outbox, metrics: metrics.webhooks, logger: logger, eventLoopGroup: group,
                now: { Int64(Date().timeIntervalSince1970 * 1_000) })
        }
        let hub = Hub(
            store: store, configuration: configuration, metrics: metrics, logger: logger,
            cluster: clusterParts.map { ClusterPublisher(node: node, sink: $0.sink) }, webhooks: webhooks?.events,
            eventLoops: Array(group.makeIterator())
        )
        let bus = clusterParts?.bus(hub: hub)
        let refusals = AddressRefusals(
            burst: configuration.addresses.refusals, countsLocalAddresses: configuration.addresses.countsLocalAddresses, now: hub.now,
            metrics: metrics
        )
        let pendingHandshakes = PendingHandshakes(
            limit: configuration.addresses.pendingConnections, countsLocalAddresses: configuration.addresses.countsLocalAddresses,
            metrics: metrics
        )
        let timers = TimerQueues()
        let shared = SocketContext(
            hub: hub, authority: authority, configuration: configuration, logger: logger, writers: LoopWriters(timings: metrics.stages),
            timers: timers, refusals: refusals, pendingHandshakes: pendingHandshakes
        )

        let router = Router(context: BasicRequestContext.self)
        router.get("/healthz") { _, _ in
            // The release in a header: the body stays `ok` for probes that compare it.
            Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .init("Typewire-Version")!: TypewireVersion.current],
                body: .init(byteBuffer: .init(string: "ok")))
        }
        let metricsKey = try configuration.http.metricsKey.map { try APIKey($0, name: "--metrics-key") }
        router.get("/metrics") { request, _ in
            if let metricsKey, !metricsKey.authorizes(request.headers[.authorization]) {
                throw HTTPError(.unauthorized, message: "/metrics needs the metrics key: Authorization: Bearer KEY (--metrics-key).")
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: .init(string: metrics.registry.emitToString()))
            )
        }
        RESTRoutes(store: store, hub: hub, authority: authority, configuration: configuration).register(on: router)
        if let apiKey = configuration.serverAPI.key {
            ServerAPIRoutes(store: store, hub: hub, key: try APIKey(apiKey), configuration: configuration).register(on: router)
        }
        if configuration.demo {
            router.get("/v1/demo/users") { _, _ -> Response in
                Response(
                    status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(data: try DemoSeed.listing())))
            }
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
        if let files = try PublicFiles.middleware(for: configuration, context: BasicRequestContext.self) {
            router.add(middleware: PublicFilesGuard())  // FileMiddleware's answers to `//x` and a range past the end
            router.add(middleware: files)  // after the routes: only a request no route answers looks for a file
        }
        var httpConfiguration = HTTP1Channel.Configuration(idleTimeout: TimeAmount(configuration.http.idleTimeout))
        httpConfiguration.httpDecoder.maxHeaderListSize = configuration.http.maxHeaderBytes
        httpConfiguration.httpDecoder.maxHeaderFieldSize = configuration.http.maxHeaderBytes
        let http1 = httpConfiguration
        let allowedOrigins = Set(configuration.http.allowedOrigins)
        let sockets = OpenSockets(gauge: metrics.sockets)
        let acceptErrors = AcceptErrors(metrics: metrics, logger: logger)
        let listener = ListenerState()
        let application = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedChildChannel(
                    base: SocketChildChannel(
                        responder: responder, http1: http1, maxFrameSize: configuration.sockets.frameLimit, sockets: sockets,
                        shouldUpgrade: { head in Self.mayOpenSocket(head, allowedOrigins: allowedOrigins) },
                        installSocket: { channel in try channel.pipeline.syncOperations.addHandler(SocketHandler(shared: shared)) }
                    ),
                    maxHeadBytes: configuration.http.maxHeaderBytes, headTimeout: TimeAmount(configuration.http.headerTimeout),
                    listener: listener, timers: timers, refusals: refusals, pendingHandshakes: pendingHandshakes
                )
            },
            configuration: .init(
                address: .hostname(configuration.http.host, port: configuration.http.port), serverName: "typewire", backlog: 4_096),
            onServerRunning: { channel in
                listener.follow(channel)
                try? await channel.pipeline.addHandler(acceptErrors, position: .first).get()
                await onServerRunning(channel.localAddress?.port ?? configuration.http.port)
            },
            eventLoopGroupProvider: .shared(group),
            logger: logger
        )
        return TypewireService(
            application: application, serverLoop: group.next(), sockets: sockets, hub: hub, bus: bus, webhooks: webhooks, logger: logger)
    }

    /// Whether a request may open a socket: the socket path, and, when origins are configured, no browser
    /// origin outside them. Browsers send the page's Origin (http or https): a page from a foreign site may
    /// not open a socket with a user's token. Non-browser clients may send a ws:// origin of their own.
    static func mayOpenSocket(_ head: HTTPRequestHead, allowedOrigins: Set<String>) -> Bool {
        guard head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) == WireProtocol.socketPath else { return false }
        guard !allowedOrigins.isEmpty else { return true }
        let browserOrigins = head.headers["Origin"].filter { !$0.hasPrefix("ws://") && !$0.hasPrefix("wss://") }
        return !browserOrigins.contains { !allowedOrigins.contains($0) }
    }
}
