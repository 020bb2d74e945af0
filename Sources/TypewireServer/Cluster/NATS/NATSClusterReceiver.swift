import Logging
import NIOConcurrencyHelpers
import TypewireNATS

/// What the NATS bus hears, handled where the NATS client reads it (on its event loop, in order): each
/// message opened, checked for freshness (``ClusterPayload``) and its events handed to the hub's shards without a task or a hop back
/// (``Hub/dispatch(_:)``).
///
/// Made before the hub (the NATS client that calls it exists before the hub, which publishes through it);
/// the bus attaches the hub before the client connects.
final class NATSClusterReceiver: Sendable {
    private let payloads: ClusterPayload
    private let metrics: ClusterMetrics
    private let logger: Logger
    private let attached = NIOLockedValueBox<(hub: Hub, roster: ClusterRoster)?>(nil)
    private let refused: DropCount
    private let replayed: DropCount

    init(payloads: ClusterPayload, metrics: ClusterMetrics, logger: Logger) {
        self.payloads = payloads
        self.metrics = metrics
        self.logger = logger
        refused = .unsigned(logger: logger, counter: metrics.eventsRefused)
        replayed = .replayed(logger: logger, counter: metrics.eventsReplayed)
    }

    /// Where events go from now on.
    func attach(hub: Hub, roster: ClusterRoster) {
        attached.withLockedValue { $0 = (hub, roster) }
    }

    /// Checks a message and hands its events on.
    func receive(_ message: NATSMessage) {
        guard let (hub, roster) = attached.withLockedValue({ $0 }) else { return }
        let node: String
        let events: [ClusterEvent]
        switch payloads.decodeBatch(message.payload, subject: message.subject) {
        case .accepted(let sender, let heard): (node, events) = (sender, heard)
        case .refused: return refused.add(["subject": "\(message.subject)"])
        case .replayed: return replayed.add(["subject": "\(message.subject)"])
        }
        for event in events {
            if case .resync = event {
                // The node's bus came back: its users' presence is read again (its activity comes as slices).
                Task {
                    guard let rows = try? await roster.presenceOfLiveNodes(only: node) else { return }
                    await hub.replaceRemotePresence(rows, of: [node])
                }
            }
            hub.dispatch(ClusterEnvelope(node: node, event: event))
        }
    }
}
