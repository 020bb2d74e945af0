import Logging
import ServiceLifecycle
import TypewireNATS

/// The bus between the nodes of a cluster on NATS, routed by interest: a conversation's events travel on
/// its own subject (``ClusterSubjects``), which a node subscribes to only while one of its sockets follows
/// the conversation, so a NATS cluster forwards them only to those nodes. What every node needs (presence,
/// settings, blocks, membership, nodes coming and going) travels on one subject all nodes subscribe to.
/// PostgreSQL stays the store, and keeps the heartbeats and the presence table (``ClusterRoster``). What the
/// node hears is handled where the NATS client reads it (``NATSClusterReceiver``).
///
/// Delivery is at most once. When the connection to NATS comes back (on any server of the NATS cluster),
/// events may have been lost both ways: the node reads who is online elsewhere from the roster again, asks
/// the others to send their activity again and to read its own users' presence again (``ClusterEvent/resync``),
/// sends its own activity, and reads its followed conversations' participants and its users' sharing from
/// the store again (``Hub/recheckFromStore()``), which it also does every minute for any event lost. A node that begins following a conversation asks its other followers for
/// their activity in it (``ClusterEvent/sliceRequest(conversation:)``).
public struct NATSClusterBus: Service {
    let nats: NATSClient
    let sink: NATSClusterSink
    let roster: ClusterRoster
    let logger: Logger

    var hub: Hub { roster.hub }

    /// Runs the bus until the hub has said its last (its service stops before the bus's), then says goodbye
    /// to the other nodes and leaves.
    public func run() async throws {
        try await roster.heartbeat()
        _ = nats.subscribe(to: ClusterSubjects.everyNode)
        await hub.loadRemotePresence(try await roster.presenceOfLiveNodes())
        let recorder = Task { await recordPresence() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await nats.run() }
            group.addTask { await resyncAfterReconnecting() }
            group.addTask { await hub.recheckFromStorePeriodically() }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    await roster.watch { await hub.closeAll(reason: "this node rejoined the cluster") }
                }
            }
            await sink.finished()
            // The hub stopped: tell the others at once rather than by missing heartbeats, once the last presence
            // changes are in the table (a store that does not answer is waited for 2 s at most).
            sink.publish(ClusterEnvelope(node: roster.node, event: .nodeStopping))
            await sink.flushNow()
            await nats.flush(timeout: .seconds(2))
            await Self.wait(atMost: .seconds(2)) { await recorder.value }
            try? await roster.forget(node: roster.node)
            group.cancelAll()
        }
        logger.info("Shutting down: left the cluster")
    }

    /// After the connection to NATS came back: presence read again, the others asked to resync, this node's
    /// activity sent again.
    private func resyncAfterReconnecting() async {
        for await event in nats.connectionEvents {
            guard case .connected(let server, reconnected: true) = event else { continue }
            logger.info("the cluster bus reconnected; resyncing with the other nodes", metadata: ["server": "\(server)"])
            if let rows = try? await roster.presenceOfLiveNodes() { await hub.replaceRemotePresence(rows, of: nil) }
            sink.publish(ClusterEnvelope(node: roster.node, event: .resync))
            await hub.republishActivity()
            await hub.recheckFromStore()  // a removal, a sharing change sent meanwhile are not sent again
        }
    }

    /// Keeps this node's users in the roster's presence table, in the order they came and went.
    private func recordPresence() async {
        for await change in sink.presenceChanges {
            do {
                try await roster.recordPresence(of: change.user, online: change.online)
            } catch {
                logger.error("a user's presence could not be recorded for the cluster", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Waits for `operation`, for at most `limit`.
    private static func wait(atMost limit: Duration, for operation: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await operation() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }
}
