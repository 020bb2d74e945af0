/// Which sockets follow which of a shard's conversations, kept both ways in one place: by conversation for
/// fan-out, by socket for its close. Every change returns what it changed, and the shard applies that to
/// the gauges, the socket's budget and its caches in one place (``HubShard/apply(_:to:)``). A pure value,
/// as postgres-nio's `ListenStateMachine`.
///
/// Each subscription keeps the socket's `Subscriber` (the shard's ``HubShard/Connection``): a fan-out reads
/// each subscriber's sink from the conversation's own table, without a lookup of the socket by its id
/// (profiled, that lookup and the object it led to were a sixth of an `activity` fan-out's own work).
struct Subscriptions<Subscriber> {
    /// What a change did.
    struct Change: Equatable {
        /// Subscriptions begun (positive) or ended (negative).
        var count = 0
        /// Conversations that nobody here followed before.
        var began: [String] = []
        /// Conversations that nobody here follows any more.
        var abandoned: [String] = []
    }

    private var byConversation: [String: [ConnectionID: Subscriber]] = [:]
    private var byConnection: [ConnectionID: Set<String>] = [:]

    /// The sockets following a conversation, each with its subscriber.
    func subscribers(of conversation: String) -> [ConnectionID: Subscriber] {
        byConversation[conversation] ?? [:]
    }

    /// The conversations someone here follows.
    var followedConversations: [String] { Array(byConversation.keys) }

    /// Whether anyone here follows the conversation.
    func isFollowed(_ conversation: String) -> Bool {
        byConversation[conversation] != nil
    }

    /// The conversations a socket follows.
    func conversations(of id: ConnectionID) -> Set<String> {
        byConnection[id] ?? []
    }

    /// Whether a socket follows a conversation.
    func contains(_ id: ConnectionID, in conversation: String) -> Bool {
        byConversation[conversation]?[id] != nil
    }

    /// A socket follows a conversation (again: no change).
    mutating func subscribe(_ id: ConnectionID, as subscriber: Subscriber, to conversation: String) -> Change {
        let isNew = byConversation[conversation] == nil
        guard byConversation[conversation, default: [:]].updateValue(subscriber, forKey: id) == nil else { return Change() }
        byConnection[id, default: []].insert(conversation)
        return Change(count: 1, began: isNew ? [conversation] : [])
    }

    /// A socket stops following a conversation (one it did not follow: no change).
    mutating func unsubscribe(_ id: ConnectionID, from conversation: String) -> Change {
        guard byConnection[id]?.remove(conversation) != nil else { return Change() }
        if byConnection[id]?.isEmpty == true { byConnection[id] = nil }
        return Change(count: -1, abandoned: removeSubscriber(id, from: conversation) ? [conversation] : [])
    }

    /// A socket closed: it follows nothing any more.
    mutating func removeAll(of id: ConnectionID) -> Change {
        guard let conversations = byConnection.removeValue(forKey: id) else { return Change() }
        return Change(count: -conversations.count, abandoned: conversations.filter { removeSubscriber(id, from: $0) })
    }

    /// - Returns: Whether the conversation has no subscriber left.
    private mutating func removeSubscriber(_ id: ConnectionID, from conversation: String) -> Bool {
        guard byConversation[conversation]?.removeValue(forKey: id) != nil, byConversation[conversation]?.isEmpty == true else {
            return false
        }
        byConversation[conversation] = nil
        return true
    }
}
