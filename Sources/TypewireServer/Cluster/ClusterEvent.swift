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
public struct ClusterOutbox: Sendable {
    /// This node's id, unique per process.
    public let node: String
    private let continuation: AsyncStream<ClusterEnvelope>.Continuation

    /// Creates an outbox and the sequence of envelopes a bus sends, in the order they were put in.
    static func make(node: String) -> (ClusterOutbox, AsyncStream<ClusterEnvelope>) {
        let (stream, continuation) = AsyncStream.makeStream(of: ClusterEnvelope.self)
        return (ClusterOutbox(node: node, continuation: continuation), stream)
    }

    func publish(_ event: ClusterEvent) {
        continuation.yield(ClusterEnvelope(node: node, event: event))
    }

    func finish() {
        continuation.finish()
    }
}
