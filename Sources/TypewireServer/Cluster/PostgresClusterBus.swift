import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// The bus between the nodes of a cluster, on the PostgreSQL they share: events travel by
/// LISTEN/NOTIFY on one channel; a table of heartbeats tells which nodes are alive, and a table of
/// presence which users each node has.
///
/// - Events leave in the order the hub put them in (one publisher), and PostgreSQL delivers them in
///   that order, so a receiver never sees a message before the sender's stop.
/// - A node that misses heartbeats for ``Configuration/deadAfter`` is taken for dead by the others:
///   its users' activity goes and those not connected elsewhere turn offline.
/// - If the listening connection drops, events sent meanwhile are lost: the node closes its sockets
///   (clients reconnect and resubscribe, which resyncs them) and listens again.
public struct PostgresClusterBus: Service {
    /// The bus's timing.
    public struct Configuration: Sendable {
        /// How often the node writes its heartbeat and looks for dead nodes. Default 1 s.
        public var heartbeatInterval: Duration
        /// How long without a heartbeat until a node counts as dead. Default 3 s.
        public var deadAfter: Duration

        /// Creates a configuration.
        public init(heartbeatInterval: Duration = .seconds(1), deadAfter: Duration = .seconds(3)) {
            self.heartbeatInterval = heartbeatInterval
            self.deadAfter = deadAfter
        }
    }

    /// The NOTIFY channel.
    static let channel = "typewire_cluster"

    let client: PostgresClient
    let hub: Hub
    let node: String
    let outgoing: AsyncStream<ClusterEnvelope>
    /// Signs what this node sends and checks what it hears.
    let payloads: ClusterPayload
    let configuration: Configuration
    let logger: Logger

    /// Runs the bus: listening and heartbeats until graceful shutdown; publishing until the hub has
    /// said its last (the hub's service stops before the bus's), then a goodbye to the other nodes.
    public func run() async throws {
        try await heartbeat()
        await withDiscardingTaskGroup { group in
            group.addTask { await cancelWhenGracefulShutdown { await listen() } }
            group.addTask { await cancelWhenGracefulShutdown { await watch() } }
            group.addTask { await publish() }
        }
        logger.info("Shutting down: left the cluster")
    }

    // MARK: Listening

    private func listen() async {
        var first = true
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        if first {
                            first = false
                            await hub.loadRemotePresence(try await presenceOfLiveNodes())
                        } else {
                            // Events were lost while nobody listened: clients resync by reconnecting.
                            await hub.closeAll(reason: "the cluster bus reconnected")
                        }
                        var refused = 0
                        for try await notification in notifications {
                            // A node hears its own notifications: they are skipped before any decoding.
                            let payload = notification.payload
                            guard ClusterPayload.node(of: payload) != Substring(node) else { continue }
                            guard let envelope = payloads.decode(payload) else {
                                refused += 1
                                if refused == 1 || refused.isMultiple(of: 1_000) {
                                    logger.error(
                                        "a cluster event that is not signed with this cluster's key was dropped (do all nodes share the JWT secret?)",
                                        metadata: ["dropped": "\(refused)"])
                                }
                                continue
                            }
                            await hub.apply(envelope)
                        }
                    }
                }
            } catch {
                logger.error("the cluster bus lost its listening connection", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    // MARK: Publishing

    private func publish() async {
        for await envelope in outgoing {
            do {
                if case .presence(let user, let online) = envelope.event { try await recordPresence(of: user, online: online) }
                let payload = try payloads.encode(envelope)
                try await client.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger).drain()
            } catch ClusterPayload.Refusal.tooLarge(let bytes) {
                logger.debug(
                    "a streamed reply's part is too large for NOTIFY; the other nodes get the stored reply", metadata: ["bytes": "\(bytes)"]
                )
            } catch {
                logger.error("a cluster event could not be published", metadata: ["error": "\(error)"])
            }
        }
        // The hub stopped: tell the others at once rather than by missing heartbeats.
        if let goodbye = try? payloads.encode(ClusterEnvelope(node: node, event: .nodeStopping)) {
            try? await client.query("SELECT pg_notify(\(Self.channel), \(goodbye))", logger: logger).drain()
        }
        try? await forget(node: node)
    }

    private func recordPresence(of user: String, online: Bool) async throws {
        if online {
            try await client.query(
                #"INSERT INTO cluster_presence (node, "user") VALUES (\#(node), \#(user)) ON CONFLICT DO NOTHING"#, logger: logger
            ).drain()
        } else {
            try await client.query(#"DELETE FROM cluster_presence WHERE node = \#(node) AND "user" = \#(user)"#, logger: logger).drain()
        }
    }

    // MARK: Heartbeats

    /// Writes this node's heartbeat.
    /// - Returns: Whether the row was there: false the first time, and after the other nodes took this
    ///   node for dead (it stalled for longer than ``Configuration/deadAfter``).
    @discardableResult
    private func heartbeat() async throws -> Bool {
        var updated = false
        for try await _ in try await client.query(
            "UPDATE cluster_nodes SET heartbeat_at = now() WHERE id = \(node) RETURNING id", logger: logger)
        {
            updated = true
        }
        if !updated {
            try await client.query(
                "INSERT INTO cluster_nodes (id, heartbeat_at) VALUES (\(node), now()) ON CONFLICT DO NOTHING", logger: logger
            ).drain()
        }
        return updated
    }

    /// Writes this node's heartbeat and forgets nodes that stopped writing theirs.
    private func watch() async {
        let deadAfter = Double(configuration.deadAfter.components.seconds) + Double(configuration.deadAfter.components.attoseconds) / 1e18
        while !Task.isCancelled {
            try? await Task.sleep(for: configuration.heartbeatInterval)
            do {
                if try await !heartbeat() {
                    // The others forgot this node's users: their clients reconnect, which tells everyone again.
                    logger.warning("this node was taken for dead by the cluster; closing its sockets so clients resync")
                    await hub.closeAll(reason: "this node rejoined the cluster")
                }
                var dead: [String] = []
                let rows = try await client.query(
                    "SELECT id FROM cluster_nodes WHERE id <> \(node) AND heartbeat_at < now() - make_interval(secs => \(deadAfter))",
                    logger: logger
                )
                for try await id in rows.decode(String.self) { dead.append(id) }
                for id in dead {
                    logger.warning("a cluster node stopped sending heartbeats; forgetting it", metadata: ["node": "\(id)"])
                    await hub.nodeDied(id)  // and tells the other nodes, which will not find it in the table
                    try await forget(node: id)
                }
            } catch  where !Task.isCancelled {
                logger.error("the cluster heartbeat failed", metadata: ["error": "\(error)"])
            } catch {}
        }
    }

    private func forget(node id: String) async throws {
        try await client.query("DELETE FROM cluster_presence WHERE node = \(id)", logger: logger).drain()
        try await client.query("DELETE FROM cluster_nodes WHERE id = \(id)", logger: logger).drain()
    }

    private func presenceOfLiveNodes() async throws -> [(node: String, user: String)] {
        var rows: [(node: String, user: String)] = []
        let result = try await client.query(
            #"""
            SELECT p.node, p."user" FROM cluster_presence p JOIN cluster_nodes n ON n.id = p.node WHERE p.node <> \#(node)
            """#, logger: logger)
        for try await (node, user) in result.decode((String, String).self) { rows.append((node, user)) }
        return rows
    }
}
