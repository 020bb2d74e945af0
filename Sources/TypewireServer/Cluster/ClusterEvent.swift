import Logging
import NIOConcurrencyHelpers
import TypewireCore

/// What one node of a cluster tells the others, so that members connected to any node see the same
/// conversation. Each event is small (a few hundred bytes); a message too large for the bus travels by
/// id and is read from the shared store.
enum ClusterEvent: Codable, Sendable, Equatable {
    /// The node's own users' activity in a conversation (its whole slice), stamped with its clock.
    case slice(conversation: String, entries: [ActivityEntry], serverTime: Int64)
    /// A user's first socket on the node opened, or the last one closed.
    case presence(user: String, online: Bool)
    /// A new or edited message, whole.
    case message(ChatMessage)
    /// A new or edited message too large for the bus: read it from the store.
    case messageRef(conversation: String, id: String)
    /// Part of a bot's reply.
    case stream(ServerFrame.StreamDelta)
    /// A participant joined or left a conversation.
    case membership(conversation: String, user: String, added: Bool)
    /// A user turned sharing their typing on or off.
    case sharing(user: String, shares: Bool)
    /// A user turned sharing their presence on or off.
    case presenceSharing(user: String, shares: Bool)
    /// A user blocked or unblocked another.
    case block(blocker: String, user: String, blocked: Bool)
    /// The node is stopping: forget its users' activity and presence now.
    case nodeStopping
    /// Another node stopped sending heartbeats (the first node to notice tells the others).
    case nodeDead(node: String)
}

/// An event with the node that sent it (a node hears its own notifications too).
struct ClusterEnvelope: Sendable {
    /// The sending node's id.
    var node: String
    /// The event.
    var event: ClusterEvent
}

/// The hub's side of the cluster bus: where it puts the events the other nodes must hear, in order.
///
/// The queue is bounded (``capacity``): if PostgreSQL cannot take events as fast as the hub makes them,
/// the newest are dropped and counted rather than held without limit; the other nodes then miss them
/// (typing expires by its ttl there, and clients resync when they reconnect).
public struct ClusterPublisher: Sendable {
    /// The most events waiting for the bus.
    static let capacity = 10_000

    /// This node's id, unique per process.
    public let node: String
    private let continuation: AsyncStream<ClusterEnvelope>.Continuation
    private let dropped: DropCount

    /// Creates a publisher and the sequence of envelopes a bus sends, in the order they were published.
    static func make(node: String, logger: Logger) -> (publisher: ClusterPublisher, envelopes: AsyncStream<ClusterEnvelope>) {
        let (stream, continuation) = AsyncStream.makeStream(of: ClusterEnvelope.self, bufferingPolicy: .bufferingOldest(capacity))
        return (ClusterPublisher(node: node, continuation: continuation, dropped: DropCount(logger: logger)), stream)
    }

    func publish(_ event: ClusterEvent) {
        if case .dropped = continuation.yield(ClusterEnvelope(node: node, event: event)) { dropped.add() }
    }

    func finish() {
        continuation.finish()
    }
}

/// Counts the events a full publisher dropped, and says so in the log (the first, then every thousandth).
final class DropCount: Sendable {
    private let count = NIOLockedValueBox(0)
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    func add() {
        let total = count.withLockedValue { count -> Int in
            count += 1
            return count
        }
        if total == 1 || total.isMultiple(of: 1_000) {
            logger.error("the cluster bus cannot keep up: events for the other nodes were dropped", metadata: ["dropped": "\(total)"])
        }
    }
}
