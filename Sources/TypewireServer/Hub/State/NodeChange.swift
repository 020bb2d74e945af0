import TypewireCore

/// A change of state this node makes that others hear of, told once (`Hub.tell(_:)`): one mapper turns it
/// into what the other nodes of a cluster are sent (``clusterEvents``), another into the app's backend's
/// webhook payload (``webhookPayload``); the hub applies it to its own shards where it is made. A new kind
/// of change is one case here and an arm in each mapper.
enum NodeChange: Sendable, Hashable {
    /// A user's first socket on this node opened (`online`), or their last one closed; `shown`: the other
    /// nodes are told (an online is not, for a user who shares their presence with nobody).
    case connection(user: String, online: Bool, shown: Bool)
    /// What a user's presence is now to be shown as, told by a node with sockets of theirs after their
    /// sharing changed (here, or on another node): not a connection, so the app's backend is not told.
    case presenceShown(user: String, online: Bool)
    /// Members joined and left a conversation. `created`: a new conversation, which nobody follows yet
    /// (only the app's backend hears of it); `deleted`: the conversation went, and its members with it.
    case members(conversation: String, joined: [String], left: [String], created: Bool = false, deleted: Bool = false)
    /// A user turned sharing their typing on or off.
    case typingSharing(user: String, shares: Bool)
    /// A user turned sharing their presence on or off.
    case presenceSharing(user: String, shares: Bool)
    /// A user changed what they show of their reading (the store holds it).
    case readReceipts(user: String)
    /// A user blocked or unblocked another.
    case block(blocker: String, user: String, blocked: Bool)

    /// What the other nodes of a cluster are sent, in order.
    var clusterEvents: [ClusterEvent] {
        switch self {
        case .connection(let user, let online, let shown): shown ? [.presence(user: user, online: online)] : []
        case .presenceShown(let user, let online): [.presence(user: user, online: online)]
        case .members(let conversation, let joined, let left, let created, _):
            created
                ? []
                : joined.map { .membership(conversation: conversation, user: $0, added: true) }
                    + left.map { .membership(conversation: conversation, user: $0, added: false) }
        case .typingSharing(let user, let shares): [.sharing(user: user, shares: shares)]
        case .presenceSharing(let user, let shares): [.presenceSharing(user: user, shares: shares)]
        case .readReceipts(let user): [.readReceipts(user: user)]
        case .block(let blocker, let user, let blocked): [.block(blocker: blocker, user: user, blocked: blocked)]
        }
    }

    /// What the app's backend is sent, if anything. The hub checks one thing the value cannot know: a user
    /// with a socket on another node neither came online nor went offline.
    var webhookPayload: WebhookEvent.Payload? {
        switch self {
        case .connection(let user, let online, _): .presenceChanged(user: user, online: online)
        case .members(let conversation, let joined, let left, _, let deleted):
            joined.isEmpty && left.isEmpty
                ? nil : .membersChanged(conversation: conversation, added: joined, removed: left, deleted: deleted)
        case .presenceShown, .typingSharing, .presenceSharing, .readReceipts, .block: nil
        }
    }
}
