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
    /// A member asked to stop a reply a bot streams on another node (the node that received the `cancel`
    /// checked that they are a member; the bot's node checks who may stop it, and ends it).
    case stopReply(conversation: String, messageId: String, by: String)
    /// Members on the sending node read further: their watermarks, as that node fanned them out (at most one
    /// frame a second per conversation and node); each node sends them on to its own subscribers.
    case receipts(ServerFrame.Receipts)
    /// A user read further on the sending node: their own mark and unread count, for their sockets on the
    /// others.
    case unread(user: String, ServerFrame.Unread)
    /// A user changed what they show of their reading: nodes with sockets of theirs read it from the store.
    case readReceipts(user: String)
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
        case .stopReply(let conversation, _, _): conversation
        case .receipts(let frame): frame.conversation
        case .unread(_, let frame): frame.conversation
        case .presence, .membership, .sharing, .presenceSharing, .readReceipts, .block, .nodeStopping, .nodeDead, .resync: nil
        }
    }
}
