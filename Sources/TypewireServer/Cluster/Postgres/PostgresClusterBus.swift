import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// The bus between the nodes of a cluster on the PostgreSQL they share: events travel by LISTEN/NOTIFY on
/// one channel, which every node hears (``ClusterRoster`` keeps the heartbeats and presence).
///
/// - Events leave in the order the hub put them in (one publisher), and PostgreSQL delivers them in
///   that order, so a receiver never sees a message before the sender's stop.
/// - If the listening connection drops, events sent meanwhile are lost: the node closes its sockets
///   (clients reconnect and resubscribe, which resyncs them) and listens again.
public struct PostgresClusterBus: Service {
    /// The NOTIFY channel.
    static let channel = "typewire_cluster"

    let client: PostgresClient
    let roster: ClusterRoster
    let outgoing: AsyncStream<ClusterEnvelope>
    /// Seals what this node sends and opens what it hears.
    let payloads: ClusterPayload
    let metrics: ClusterMetrics
    let logger: Logger

    var hub: Hub { roster.hub }
    var node: String { roster.node }

    /// Runs the bus: listening and heartbeats until graceful shutdown; publishing until the hub has
    /// said its last (the hub's service stops before the bus's), then a goodbye to the other nodes.
    public func run() async throws {
        try await roster.heartbeat()
        await withDiscardingTaskGroup { group in
            group.addTask { await cancelWhenGracefulShutdown { await listen() } }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    await roster.watch { await hub.closeAll(reason: "this node rejoined the cluster") }
                }
            }
            group.addTask { await publish() }
            group.addTask { await cancelWhenGracefulShutdown { await hub.recheckFromStorePeriodically() } }
        }
        logger.info("Shutting down: left the cluster")
    }

    // MARK: Listening

    private func listen() async {
        var first = true
        let refused = DropCount.unsigned(logger: logger, counter: metrics.eventsRefused)
        let replayed = DropCount.replayed(logger: logger, counter: metrics.eventsReplayed)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        if first {
                            first = false
                            await hub.loadRemotePresence(try await roster.presenceOfLiveNodes())
                        } else {
                            // Events were lost while nobody listened: clients resync by reconnecting.
                            await hub.closeAll(reason: "the cluster bus reconnected")
                        }
                        for try await notification in notifications {
                            // A node hears its own notifications: they are skipped before any decoding.
                            let payload = notification.payload
                            guard ClusterPayload.node(of: payload) != Substring(node) else { continue }
                            switch payloads.decode(payload, subject: Self.channel) {
                            case .accepted(let sender, let events):
                                for event in events { await hub.apply(ClusterEnvelope(node: sender, event: event)) }
                            case .refused: refused.add()
                            case .replayed: replayed.add()
                            }
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
                if case .presence(let user, let online) = envelope.event { try await roster.recordPresence(of: user, online: online) }
                let payload = try payloads.encode(envelope.event, subject: Self.channel)
                try await client.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger).drain()
                metrics.eventsPublished.increment()
                metrics.busMessagesPublished.increment()
            } catch ClusterPayload.Refusal.tooLarge(let bytes) {
                metrics.eventsTooLarge.increment()
                if case .stream = envelope.event {
                    logger.debug(
                        "a streamed reply's part is too large for NOTIFY; the other nodes get the stored reply",
                        metadata: ["bytes": "\(bytes)"])
                } else {
                    logger.warning(
                        "a cluster event is too large for NOTIFY and was not sent",
                        metadata: ["bytes": "\(bytes)", "conversation": "\(envelope.event.conversation ?? "none")"])
                }
            } catch {
                logger.error("a cluster event could not be published", metadata: ["error": "\(error)"])
            }
        }
        // The hub stopped: tell the others at once rather than by missing heartbeats.
        if let goodbye = try? payloads.encode(.nodeStopping, subject: Self.channel) {
            try? await client.query("SELECT pg_notify(\(Self.channel), \(goodbye))", logger: logger).drain()
        }
        try? await roster.forget(node: node)
    }
}
