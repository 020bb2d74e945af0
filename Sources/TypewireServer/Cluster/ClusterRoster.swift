import Foundation
import Logging
import PostgresNIO

/// Who is in the cluster, on the PostgreSQL its nodes share (whichever bus carries their events): a
/// heartbeat row per node, and a row per user each node has online.
///
/// - A node that misses heartbeats for ``ClusterConfiguration/deadAfter`` is taken for dead by the first node
///   to notice: its users' activity goes and those not connected elsewhere turn offline, everywhere.
/// - The presence rows tell a node that starts (or resyncs after its bus came back) who is online elsewhere.
struct ClusterRoster: Sendable {
    let client: PostgresClient
    let hub: Hub
    let node: String
    let configuration: ClusterConfiguration
    let logger: Logger

    /// Writes this node's heartbeat.
    /// - Returns: Whether the row was there: false the first time, and after the other nodes took this
    ///   node for dead (it stalled for longer than ``ClusterConfiguration/deadAfter``).
    @discardableResult
    func heartbeat() async throws -> Bool {
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

    /// Writes this node's heartbeat and forgets nodes that stopped writing theirs, until cancelled.
    /// - Parameter rejoined: What to do when this node finds it was taken for dead (its users were forgotten).
    func watch(rejoined: @Sendable () async -> Void) async {
        let deadAfter = Double(configuration.deadAfter.components.seconds) + Double(configuration.deadAfter.components.attoseconds) / 1e18
        while !Task.isCancelled {
            try? await Task.sleep(for: configuration.heartbeatInterval)
            do {
                if try await !heartbeat() {
                    logger.warning("this node was taken for dead by the cluster; telling its users again")
                    await rejoined()
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

    /// Records that one of this node's users came online or went offline.
    func recordPresence(of user: String, online: Bool) async throws {
        if online {
            try await client.query(
                #"INSERT INTO cluster_presence (node, "user") VALUES (\#(node), \#(user)) ON CONFLICT DO NOTHING"#, logger: logger
            ).drain()
        } else {
            try await client.query(#"DELETE FROM cluster_presence WHERE node = \#(node) AND "user" = \#(user)"#, logger: logger).drain()
        }
    }

    /// Forgets a node and its users.
    func forget(node id: String) async throws {
        try await client.query("DELETE FROM cluster_presence WHERE node = \(id)", logger: logger).drain()
        try await client.query("DELETE FROM cluster_nodes WHERE id = \(id)", logger: logger).drain()
    }

    /// The users online on the other live nodes (or on one node only).
    func presenceOfLiveNodes(only: String? = nil) async throws -> [(node: String, user: String)] {
        var rows: [(node: String, user: String)] = []
        let result =
            if let only {
                try await client.query(#"SELECT node, "user" FROM cluster_presence WHERE node = \#(only)"#, logger: logger)
            } else {
                try await client.query(
                    #"""
                    SELECT p.node, p."user" FROM cluster_presence p JOIN cluster_nodes n ON n.id = p.node WHERE p.node <> \#(node)
                    """#, logger: logger)
            }
        for try await (node, user) in result.decode((String, String).self) { rows.append((node, user)) }
        return rows
    }
}
