import Logging
import NIOConcurrencyHelpers
import Prometheus
import TypewireCore

/// What one node of a cluster tells the others, so that members connected to any node see the same
/// conversation. Each event is small (a few hundred bytes); a message too large for the bus travels by
/// id and is read from the shared store.
enum ClusterEvent: Codable, Sendable, Equatable {
    /// The node's own users' activity in a conversation, stamped with its clock: the entries receivers may
    /// list, and how many users were left out to keep it within the bus's payload (``ClusterSlice``).
    case slice(conversation: String, entries: [ActivityEntry], serverTime: Int64, unlisted: UnlistedActivity? = nil)
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
    /// A node began following a conversation: the nodes whose users are active in it send their slice again
    /// (on a bus that routes by interest, the node heard nothing of it before).
    case sliceRequest(conversation: String)
    /// A node's connection to the bus came back: the others send their slices again and read its users'
    /// presence from the store again, since events may have been lost both ways meanwhile.
    case resync

    /// The conversation whose followers alone need the event, when a bus routes by interest; nil for an
    /// event every node needs (presence, settings, blocks, membership, nodes coming and going).
    var conversation: String? {
        switch self {
        case .slice(let conversation, _, _, _), .messageRef(let conversation, _), .sliceRequest(let conversation): conversation
        case .message(let message): message.conversation
        case .stream(let delta): delta.conversation
        case .presence, .membership, .sharing, .presenceSharing, .block, .nodeStopping, .nodeDead, .resync: nil
        }
    }
}

/// An event with the node that sent it (a node hears its own notifications too).
struct ClusterEnvelope: Sendable {
    /// The sending node's id.
    var node: String
    /// The event.
    var event: ClusterEvent
}

/// Where the hub's events for the other nodes go: a bus's outgoing side.
protocol ClusterSink: Sendable {
    /// Takes an event to send; it never waits (a sink that cannot keep up drops and counts).
    func publish(_ envelope: ClusterEnvelope)
    /// Whether the bus delivers a conversation's events only to the nodes that follow it.
    var routesByInterest: Bool { get }
    /// This node began (or stopped) following a conversation.
    func interest(in conversation: String, following: Bool)
    /// No event comes any more (the hub stopped).
    func finish()
}

/// The hub's side of the cluster bus: where it puts the events the other nodes must hear, in order, and
/// says which conversations it follows.
public struct ClusterPublisher: Sendable {
    /// This node's id, unique per process.
    public let node: String
    private let sink: any ClusterSink

    init(node: String, sink: any ClusterSink) {
        self.node = node
        self.sink = sink
    }

    func publish(_ event: ClusterEvent) {
        sink.publish(ClusterEnvelope(node: node, event: event))
    }

    /// Whether the bus delivers a conversation's events only to the nodes that follow it.
    var routesByInterest: Bool { sink.routesByInterest }

    /// This node began following a conversation (its first subscriber here), or stopped (its last left).
    func interest(in conversation: String, following: Bool) {
        sink.interest(in: conversation, following: following)
    }

    func finish() {
        sink.finish()
    }
}

/// The events waiting for the PostgreSQL bus, in order, for the one task that sends them.
///
/// The queue is bounded (``capacity``): if PostgreSQL cannot take events as fast as the hub makes them,
/// the newest are dropped and counted rather than held without limit; the other nodes then miss them
/// (typing expires by its ttl there, and clients resync when they reconnect).
struct NotifyQueue: ClusterSink {
    /// The most events waiting for the bus.
    static let capacity = 10_000

    private let continuation: AsyncStream<ClusterEnvelope>.Continuation
    private let dropped: DropCount

    /// A queue and the sequence of envelopes the bus sends, in the order they were published.
    static func make(metrics: ClusterMetrics, logger: Logger) -> (queue: NotifyQueue, envelopes: AsyncStream<ClusterEnvelope>) {
        let (stream, continuation) = AsyncStream.makeStream(of: ClusterEnvelope.self, bufferingPolicy: .bufferingOldest(capacity))
        return (NotifyQueue(continuation: continuation, dropped: DropCount(logger: logger, counter: metrics.eventsDropped)), stream)
    }

    func publish(_ envelope: ClusterEnvelope) {
        if case .dropped = continuation.yield(envelope) { dropped.add() }
    }

    /// Every node hears every event on one channel.
    var routesByInterest: Bool { false }

    func interest(in conversation: String, following: Bool) {}

    func finish() {
        continuation.finish()
    }
}

/// Counts events the bus dropped, in a metric and in the log (the first, then every thousandth): those a full
/// queue could not take, payloads that were not sealed with the cluster's key, or replayed ones.
final class DropCount: Sendable {
    private let count = NIOLockedValueBox(0)
    private let logger: Logger
    private let counter: Counter?
    private let message: Logger.Message

    init(
        logger: Logger, counter: Counter? = nil,
        message: Logger.Message = "the cluster bus cannot keep up: events for the other nodes were dropped"
    ) {
        self.logger = logger
        self.counter = counter
        self.message = message
    }

    /// A counter of sealed payloads that are stale or were accepted before.
    static func replayed(logger: Logger, counter: Counter) -> DropCount {
        DropCount(
            logger: logger, counter: counter,
            message:
                "a cluster event older than 30 s or heard before was dropped (a replay, or nodes whose clocks disagree by more than 30 s)")
    }

    /// A counter of payloads that are not sealed with the cluster's key.
    static func unsigned(logger: Logger, counter: Counter) -> DropCount {
        DropCount(
            logger: logger, counter: counter,
            message:
                "a cluster event that is not sealed with this cluster's key was dropped (do all nodes share the cluster secret and run the same version?)"
        )
    }

    func add(_ metadata: Logger.Metadata = [:]) {
        counter?.increment()
        let total = count.withLockedValue { count -> Int in
            count += 1
            return count
        }
        if total == 1 || total.isMultiple(of: 1_000) {
            logger.error(message, metadata: metadata.merging(["dropped": "\(total)"]) { $1 })
        }
    }
}
