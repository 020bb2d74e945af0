import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TypewireCore
import TypewireDemo
import TypewireNATS
import TypewireServer

/// `typewire serve`: the real-time server.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Typewire server: WebSocket at /v1/socket, one node, an embedded SQLite file.",
        discussion: "Options fall back to TYPEWIRE_* environment variables (TYPEWIRE_JWT_SECRET, TYPEWIRE_PORT, …)."
    )

    @Option(help: "Address to listen on (TYPEWIRE_HOST).")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one (TYPEWIRE_PORT).")
    var port: Int?

    @Option(help: "Event-loop threads, each running its sockets and one shard of the hub; default one per usable CPU (TYPEWIRE_THREADS).")
    var threads: Int?

    @Option(help: "The SQLite file (TYPEWIRE_SQLITE).")
    var sqlite: String?

    @Option(
        help:
            "Run as one node of a cluster on this PostgreSQL database instead of SQLite: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (TYPEWIRE_POSTGRES_URL). Every node gets the same URL."
    )
    var postgresUrl: String?

    @Option(
        help:
            "With --postgres-url: the cluster's events travel through these NATS servers, routed by interest, instead of PostgreSQL's LISTEN/NOTIFY: nats://[USER:PASSWORD@]HOST[:PORT] (tls:// for TLS), comma-separated; any one of a NATS cluster will do (TYPEWIRE_NATS_URL)."
    )
    var natsUrl: String?

    @Option(
        name: .customLong("nats-tls-ca"),
        help:
            "A PEM file of the certificate authorities the NATS servers' TLS certificates must chain to; default the system's (TYPEWIRE_NATS_TLS_CA)."
    )
    var natsTLSCA: String?

    @Option(help: "The HS256 secret for tokens (TYPEWIRE_JWT_SECRET). Required unless --demo or --jwks.")
    var jwtSecret: String?

    @Option(
        help:
            "Verify RS256 and ES256 tokens with this JSON Web Key Set: a file, or an https address (plain http on loopback only), read at start and again when a token names a new key (TYPEWIRE_JWKS)."
    )
    var jwks: String?

    @Option(help: "The issuer (iss) every token must carry (TYPEWIRE_JWT_ISSUER).")
    var jwtIssuer: String?

    @Option(help: "An audience (aud) every token must carry (TYPEWIRE_JWT_AUDIENCE).")
    var jwtAudience: String?

    @Option(help: "The claim with the user's display name; default name (TYPEWIRE_JWT_NAME_CLAIM).")
    var jwtNameClaim: String?

    @Option(help: "The claim that marks a bot when true, \"true\" or \"bot\"; default role (TYPEWIRE_JWT_BOT_CLAIM).")
    var jwtBotClaim: String?

    @Option(
        help:
            "The furthest ahead a token's exp may be, in seconds; tokens that claim to live longer are refused; default 31536000, a year (TYPEWIRE_JWT_MAX_LIFETIME)."
    )
    var jwtMaxLifetime: Int?

    @Option(
        help:
            "The key /metrics asks for (Authorization: Bearer KEY), at least 32 bytes; without it /metrics answers anyone who reaches the server (TYPEWIRE_METRICS_KEY)."
    )
    var metricsKey: String?

    @Option(
        help:
            "The key of the server API at /v1/server/ for your app's backend, at least 32 bytes; without it those routes do not exist (TYPEWIRE_API_KEY)."
    )
    var apiKey: String?

    @Flag(
        help:
            "Typing-only mode, for apps that keep their messages elsewhere: send and edit are refused, bots' streamed replies are relayed, and no message is stored (TYPEWIRE_NO_MESSAGES=1)."
    )
    var noMessages = false

    @Option(
        help:
            "The secret the nodes of a cluster seal their bus events with, at least 32 bytes; default the JWT secret (TYPEWIRE_CLUSTER_SECRET)."
    )
    var clusterSecret: String?

    @Option(help: "How long an activity lives after its last frame, in milliseconds (TYPEWIRE_ACTIVITY_TTL).")
    var activityTTL: Int?

    @Option(
        help:
            "How long a composer may sit without a keystroke before the clients' typing stops, in milliseconds, 500 to 60000; told to clients in welcome (TYPEWIRE_IDLE_TIMEOUT; default 3000)."
    )
    var idleTimeout: Int?

    @Option(help: "How often to ping each socket, in milliseconds; a silent peer is closed (TYPEWIRE_PING_INTERVAL).")
    var pingInterval: Int?

    @Option(
        help:
            "How long the server waits for a peer to answer its close frame, in milliseconds; a connection still open then is reset (TYPEWIRE_CLOSE_TIMEOUT; default 3000)."
    )
    var closeTimeout: Int?

    @Option(
        help:
            "How long a user whose last socket closed with 1001 (their app went to the background, a page was left) still shows online, in milliseconds, 0 to 60000 (TYPEWIRE_PRESENCE_GRACE; default 5000)."
    )
    var presenceGrace: Int?

    @Option(
        help:
            "Read receipts: on (each user chooses what they show), off (no one sees anyone's reading; unread counts still work), reciprocal (a user who hides their reading sees no one's) (TYPEWIRE_READ_RECEIPTS; default on)."
    )
    var readReceipts: String?

    @Option(
        help:
            "The most memory the unsent frames of one socket may hold, in bytes; a socket that reads too slowly to stay under it is cut off with 1001 (TYPEWIRE_MAX_QUEUED_BYTES; default 4194304)."
    )
    var maxQueuedBytes: Int?

    @Option(help: "How long a new connection may take to send its first request head, in milliseconds (TYPEWIRE_HEADER_TIMEOUT).")
    var headerTimeout: Int?

    @Option(help: "Activity frames allowed per second and socket (TYPEWIRE_ACTIVITY_RATE).")
    var activityRate: Double?

    @Option(help: "Messages allowed per second and socket (TYPEWIRE_MESSAGE_RATE).")
    var messageRate: Double?

    @Option(help: "Parts of a bot's streamed reply allowed per second and socket, before the final one (TYPEWIRE_REPLY_PART_RATE).")
    var replyPartRate: Double?

    @Option(help: "Sockets one user may open per second, sustained; past it a hello gets rate_limited (TYPEWIRE_HANDSHAKE_RATE).")
    var handshakeRate: Double?

    @Option(help: "Sockets one user may open at once, before --handshake-rate applies (TYPEWIRE_HANDSHAKE_BURST).")
    var handshakeBurst: Double?

    @Option(
        help:
            "Refused sockets (closed before welcome, or for flooding) one client address may cause before its connections are closed as soon as accepted; it regains one a second; 0 turns this off (TYPEWIRE_REFUSALS_PER_ADDRESS; default 20)."
    )
    var refusalsPerAddress: Double?

    @Option(
        help:
            "Connections one client address may have open before their first request head is complete, and WebSockets before their welcome; past it its new ones are closed at once; 0 counts none (TYPEWIRE_PENDING_CONNECTIONS_PER_ADDRESS; default 64)."
    )
    var pendingConnectionsPerAddress: Int?

    @Flag(
        help:
            "Count the refusals of loopback and private addresses too (TYPEWIRE_COUNT_LOCAL_ADDRESSES=1). Off by default: behind a proxy or a load balancer every client comes from its address."
    )
    var countLocalAddresses = false

    @Option(help: "Comma-separated browser origins allowed to open a socket; empty allows all (TYPEWIRE_ALLOWED_ORIGINS).")
    var allowedOrigins: String?

    @Option(
        help:
            "POST events to this URL (repeat for several; TYPEWIRE_WEBHOOK_URL, comma-separated): message.created, message.edited, reply.started, reply.finished, presence.changed, conversation.members_changed (docs/PROTOCOL.md, Webhooks)."
    )
    var webhookUrl: [String] = []

    @Option(
        help: "The secret webhook deliveries are signed with, at least 32 bytes; required with --webhook-url (TYPEWIRE_WEBHOOK_SECRET).")
    var webhookSecret: String?

    @Option(
        help:
            "Comma-separated event types to send; default all but activity.changed (sent at most once a second per conversation when named), message.read and unread.reminder (TYPEWIRE_WEBHOOK_EVENTS)."
    )
    var webhookEvents: String?

    @Option(help: "The longest wait between attempts of a failed delivery, in milliseconds; default 600000 (TYPEWIRE_WEBHOOK_MAX_DELAY).")
    var webhookMaxDelay: Int?

    @Option(
        help:
            "How long after a message unread.reminder names who has not read it, in seconds, 1 to 604800; default 600 (TYPEWIRE_WEBHOOK_UNREAD_AFTER)."
    )
    var webhookUnreadAfter: Int?

    @Option(
        help:
            "How long one delivery attempt may take, connecting included, in milliseconds, before it counts as failed; default 10000 (TYPEWIRE_WEBHOOK_TIMEOUT)."
    )
    var webhookTimeout: Int?

    @Option(
        help:
            "The most deliveries the webhook outbox keeps while receivers are down; past it the oldest are given up and counted; default 100000 (TYPEWIRE_WEBHOOK_MAX_PENDING)."
    )
    var webhookMaxPending: Int?

    @Option(
        help:
            "The most bytes of event bodies the webhook outbox keeps; past it the oldest are given up and counted; default 134217728 (TYPEWIRE_WEBHOOK_MAX_PENDING_BYTES)."
    )
    var webhookMaxPendingBytes: Int?

    @Option(
        name: .customLong("public"), help: "The web demo's folder, served at / (TYPEWIRE_PUBLIC; default Public, in the current directory)."
    )
    var publicDirectory: String?

    @Flag(
        help:
            "Try Typewire out: seed demo users and conversations, run the demo bot, and serve demo tokens at /v1/demo/token?user=alice, signed with a random secret of this run (so never with --jwt-secret)."
    )
    var demo = false

    @Flag(
        help:
            "Keep the time frames spend in each stage of the server, and how late each event loop's timers fire, as histograms in /metrics (TYPEWIRE_STAGE_METRICS=1)."
    )
    var stageMetrics = false

    @Flag(
        help:
            "Seed the demo's users and conversations and run its bot, with the secret of --jwt-secret and no token endpoint: for tests and clusters, whose tokens are made with that secret."
    )
    var seedDemo = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let logger = Logger(label: "typewire")
        let secret: String?
        let keySetText = (jwks ?? environment["TYPEWIRE_JWKS"]).flatMap { $0.isEmpty ? nil : $0 }
        if let given = jwtSecret ?? environment["TYPEWIRE_JWT_SECRET"], !given.isEmpty {
            guard !demo else {
                throw CommandError(
                    "--demo hands out tokens for every demo user, the bot included, to anyone who asks: with a secret of your own they would be valid on your real deployment. Run --demo without --jwt-secret (and TYPEWIRE_JWT_SECRET), or use --seed-demo to seed the demo with your secret and no token endpoint."
                )
            }
            secret = given
        } else if keySetText != nil, !demo, !seedDemo {
            secret = nil
        } else if seedDemo {
            throw CommandError(
                "--seed-demo needs --jwt-secret (or TYPEWIRE_JWT_SECRET): its tokens are made with that secret (`typewire token`).")
        } else if demo {
            secret = (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()
            logger.warning("No JWT secret given: --demo signs its tokens with a random secret for this run.")
        } else {
            throw CommandError(
                "No way to verify tokens: pass --jwt-secret (or TYPEWIRE_JWT_SECRET), --jwks with your identity provider's key set (docs/INTEGRATION.md), or run with --demo to try Typewire out."
            )
        }
        /// A flag's value, else its TYPEWIRE_* variable's, parsed; a variable that cannot be is named.
        func setting<Value>(_ flag: Value?, _ variable: String, _ parse: (String) throws -> Value) throws -> Value? {
            if let flag { return flag }
            guard let text = environment[variable] else { return nil }
            do { return try parse(text) } catch { throw CommandError("\(variable): \(error)") }
        }
        var configuration = ServerConfiguration(jwtSecret: secret)
        configuration.http.host = try setting(host, "TYPEWIRE_HOST") { $0 } ?? configuration.http.host
        configuration.http.port = try setting(port, "TYPEWIRE_PORT", Self.integer) ?? configuration.http.port
        configuration.storage.sqlitePath = try setting(sqlite, "TYPEWIRE_SQLITE") { $0 } ?? configuration.storage.sqlitePath
        configuration.auth.keySet = try keySetText.map { text in
            do { return try KeySetSource(parsing: text) } catch { throw CommandError("\(error)") }
        }
        configuration.auth.tokenRules = TokenRules(
            issuer: try setting(jwtIssuer, "TYPEWIRE_JWT_ISSUER") { $0 },
            audience: try setting(jwtAudience, "TYPEWIRE_JWT_AUDIENCE") { $0 },
            nameClaim: try setting(jwtNameClaim, "TYPEWIRE_JWT_NAME_CLAIM") { $0 } ?? "name",
            botClaim: try setting(jwtBotClaim, "TYPEWIRE_JWT_BOT_CLAIM") { $0 } ?? "role",
            maxLifetime: try setting(jwtMaxLifetime, "TYPEWIRE_JWT_MAX_LIFETIME", Self.integer).map { .seconds($0) }
                ?? TokenRules.defaultMaxLifetime
        )
        configuration.auth.clusterSecret = try setting(clusterSecret, "TYPEWIRE_CLUSTER_SECRET") { $0 }
        configuration.serverAPI.key = try setting(apiKey, "TYPEWIRE_API_KEY") { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        configuration.http.metricsKey = try setting(metricsKey, "TYPEWIRE_METRICS_KEY") { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        configuration.storage.storesMessages = !(noMessages || Self.isOn(environment["TYPEWIRE_NO_MESSAGES"]))
        configuration.demo = demo
        if let ttl = try setting(activityTTL, "TYPEWIRE_ACTIVITY_TTL", Self.integer) {
            configuration.typing.activityTTL = .milliseconds(ttl)
        }
        if let idle = try setting(idleTimeout, "TYPEWIRE_IDLE_TIMEOUT", Self.integer) {
            configuration.typing.idleTimeout = .milliseconds(idle)
        }
        if let ping = try setting(pingInterval, "TYPEWIRE_PING_INTERVAL", Self.integer) {
            configuration.sockets.pingInterval = .milliseconds(ping)
        }
        if let timeout = try setting(closeTimeout, "TYPEWIRE_CLOSE_TIMEOUT", Self.integer) {
            configuration.sockets.closeTimeout = .milliseconds(timeout)
        }
        if let grace = try setting(presenceGrace, "TYPEWIRE_PRESENCE_GRACE", Self.integer) {
            configuration.sockets.presenceGrace = .milliseconds(grace)
        }
        if let policy = try setting(readReceipts.map(Self.readReceiptPolicy), "TYPEWIRE_READ_RECEIPTS", Self.readReceiptPolicy) {
            configuration.messages.readReceipts = policy
        }
        if let bytes = try setting(maxQueuedBytes, "TYPEWIRE_MAX_QUEUED_BYTES", Self.integer) {
            configuration.sockets.maxQueuedBytes = bytes
        }
        if let timeout = try setting(headerTimeout, "TYPEWIRE_HEADER_TIMEOUT", Self.integer) {
            configuration.http.headerTimeout = .milliseconds(timeout)
        }
        if let rate = try setting(activityRate, "TYPEWIRE_ACTIVITY_RATE", Self.number) { configuration.budgets.activity.rate = rate }
        if let rate = try setting(messageRate, "TYPEWIRE_MESSAGE_RATE", Self.number) { configuration.budgets.messages.rate = rate }
        if let rate = try setting(replyPartRate, "TYPEWIRE_REPLY_PART_RATE", Self.number) { configuration.budgets.replyParts.rate = rate }
        if let rate = try setting(handshakeRate, "TYPEWIRE_HANDSHAKE_RATE", Self.number) { configuration.budgets.handshakes.rate = rate }
        if let burst = try setting(handshakeBurst, "TYPEWIRE_HANDSHAKE_BURST", Self.number) {
            configuration.budgets.handshakes.burst = burst
        }
        if let refusals = try setting(refusalsPerAddress, "TYPEWIRE_REFUSALS_PER_ADDRESS", Self.number) {
            configuration.addresses.refusals = refusals
        }
        if let pending = try setting(pendingConnectionsPerAddress, "TYPEWIRE_PENDING_CONNECTIONS_PER_ADDRESS", Self.integer) {
            configuration.addresses.pendingConnections = pending
        }
        configuration.addresses.countsLocalAddresses = countLocalAddresses || Self.isOn(environment["TYPEWIRE_COUNT_LOCAL_ADDRESSES"])
        if let origins = try setting(allowedOrigins, "TYPEWIRE_ALLOWED_ORIGINS", { $0 }) {
            configuration.http.allowedOrigins = origins.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }
        if let folder = try setting(publicDirectory, "TYPEWIRE_PUBLIC", { $0 }) { configuration.http.publicDirectory = folder }
        configuration.threads = try setting(threads, "TYPEWIRE_THREADS", Self.integer)
        configuration.stageMetrics = stageMetrics || Self.isOn(environment["TYPEWIRE_STAGE_METRICS"])
        configuration.webhooks.endpoints =
            webhookUrl.isEmpty ? Self.list(environment["TYPEWIRE_WEBHOOK_URL"] ?? "") : webhookUrl.flatMap { Self.list($0) }
        configuration.webhooks.secret = try setting(webhookSecret, "TYPEWIRE_WEBHOOK_SECRET") { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        if let names = try setting(webhookEvents, "TYPEWIRE_WEBHOOK_EVENTS", { $0 }) {
            configuration.webhooks.events = try Set(
                Self.list(names).map { name in
                    guard let type = WebhookEventType(rawValue: name) else {
                        let known = WebhookEventType.allCases.map(\.rawValue).joined(separator: ", ")
                        throw CommandError("--webhook-events: '\(name.prefix(64))' is not an event type; the types are \(known).")
                    }
                    return type
                })
        }
        if let delay = try setting(webhookMaxDelay, "TYPEWIRE_WEBHOOK_MAX_DELAY", Self.integer) {
            guard delay > 0 else { throw CommandError("--webhook-max-delay must be positive.") }
            configuration.webhooks.retry.maxDelay = .milliseconds(delay)
            configuration.webhooks.retry.firstDelay = min(configuration.webhooks.retry.firstDelay, .milliseconds(delay))
        }
        if let seconds = try setting(webhookUnreadAfter, "TYPEWIRE_WEBHOOK_UNREAD_AFTER", Self.integer) {
            guard (1...604_800).contains(seconds) else { throw CommandError("--webhook-unread-after must be 1 to 604800 seconds.") }
            configuration.webhooks.unreadReminderAfter = .seconds(seconds)
        }
        if let timeout = try setting(webhookTimeout, "TYPEWIRE_WEBHOOK_TIMEOUT", Self.integer) {
            guard timeout > 0 else { throw CommandError("--webhook-timeout must be positive.") }
            configuration.webhooks.timeout = .milliseconds(timeout)
        }
        if let rows = try setting(webhookMaxPending, "TYPEWIRE_WEBHOOK_MAX_PENDING", Self.integer) {
            guard rows > 0 else { throw CommandError("--webhook-max-pending must be positive.") }
            configuration.webhooks.maxPending = rows
        }
        if let bytes = try setting(webhookMaxPendingBytes, "TYPEWIRE_WEBHOOK_MAX_PENDING_BYTES", Self.integer) {
            guard bytes > 0 else { throw CommandError("--webhook-max-pending-bytes must be positive.") }
            configuration.webhooks.maxPendingBytes = bytes
        }
        do { try configuration.validate() } catch { throw CommandError("\(error)") }
        let files = OpenFileLimit.raiseToHard()
        logger.info(
            "Open-file limit \(files.after) (was \(files.before)): room for about \(max(0, Int(files.after) - 64)) sockets; raise the hard limit (ulimit -Hn) for more."
        )
        if let secret { _ = try await TokenAuthority(secret: secret) }  // refuse a weak secret before touching the file
        _ = try configuration.resolvedPublicDirectory()  // and a demo without its page
        let postgres = try setting(postgresUrl, "TYPEWIRE_POSTGRES_URL") { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        let natsServers = try setting(natsUrl, "TYPEWIRE_NATS_URL") { $0 }.flatMap { $0.isEmpty ? nil : $0 }.map { urls in
            do { return try NATSServerAddress.list(urls) } catch { throw CommandError("--nats-url: \(error)") }
        }
        if natsServers != nil, postgres == nil {
            throw CommandError(
                "--nats-url needs --postgres-url: the nodes of a cluster share PostgreSQL as their store, and NATS carries their events.")
        }
        let trustRoots = try setting(natsTLSCA, "TYPEWIRE_NATS_TLS_CA") { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        if let trustRoots, !FileManager.default.isReadableFile(atPath: trustRoots) {
            throw CommandError("--nats-tls-ca: '\(trustRoots)' is not a readable file.")
        }
        let cluster = ClusterConfiguration(
            nats: natsServers.map { NATSClient.Configuration(servers: $0, pingInterval: .seconds(2), tlsTrustRoots: trustRoots) })
        let store: any ChatStore =
            if let postgres {
                try await PostgresChatStore.open(url: postgres, logger: logger)
            } else {
                try await Self.openSQLite(at: configuration.storage.sqlitePath, logger: logger)
            }
        if demo || seedDemo { try await DemoSeed.seed(into: store) }
        let host = configuration.http.host
        let mode =
            (configuration.demo ? " (demo)" : "")
            + (postgres == nil ? "" : natsServers == nil ? " (cluster node on PostgreSQL)" : " (cluster node on PostgreSQL and NATS)")
        let (boundPorts, boundPort) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        let server: TypewireService
        do {
            server = try await TypewireApplication.make(
                configuration: configuration, store: store, logger: logger, cluster: postgres == nil ? nil : cluster
            ) { port in
                logger.info("Typewire serves on \(host):\(port)\(mode)")
                ListeningLine.announce(host: host, port: port)
                boundPort.yield(port)
            }
        } catch {
            try? await store.close()  // a store is closed before it goes, whatever stopped the start
            throw error
        }
        var services: [any Service] = [server]
        if demo || seedDemo, postgres != nil {
            logger.notice("The demo bot runs on single nodes only: in a cluster every node would answer each message.")
        } else if demo || seedDemo, let secret {
            // The demo bot answers in its conversations; it stops before the server does.
            let authority = try await TokenAuthority(secret: secret)
            let bot = DemoSeed.bot
            let local = ["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : host
            services.append(
                DemoBot(
                    userID: bot.userID,
                    url: { "ws://\(local):\(await boundPorts.first { _ in true } ?? 0)\(WireProtocol.socketPath)" },
                    conversations: { try await store.conversations(of: bot.userID).map(\.id) },
                    logger: logger,
                    token: { try await authority.sign(bot) }
                ))
        }
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await group.run()
        logger.info("Shutting down: closing the store")
        try await store.close()
        logger.info("Shutting down: done")
    }

    /// Opens the SQLite file, or says which file and what to check.
    private static func openSQLite(at path: String, logger: Logger) async throws -> SQLiteChatStore {
        do {
            return try await SQLiteChatStore.open(path: path, logger: logger)
        } catch let error as StoreError {
            throw CommandError("Cannot use the SQLite file '\(path)': \(error)")  // it opened: its folder is not at fault
        } catch {
            throw CommandError(
                "Cannot open the SQLite file '\(path)' (\(error)): its folder must exist and be writable, since SQLite creates files beside it."
            )
        }
    }

    /// The non-empty items of a comma-separated list, trimmed.
    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether a TYPEWIRE_* switch is set (`1` or `true`).
    private static func isOn(_ value: String?) -> Bool {
        ["1", "true"].contains(value?.lowercased())
    }

    private static func number(_ text: String) throws -> Double {
        guard let value = Double(text) else { throw CommandError("'\(text)' is not a number.") }
        return value
    }

    private static func readReceiptPolicy(_ text: String) throws -> ReadReceiptPolicy {
        guard let policy = ReadReceiptPolicy(rawValue: text) else {
            throw CommandError("'\(text)' is not a read receipt policy: on, off or reciprocal.")
        }
        return policy
    }

    private static func integer(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw CommandError("'\(text)' is not a whole number.") }
        return value
    }
}
