/// The participants of the conversations a node is busy with, indexed both ways: who is in a conversation
/// (checked on every frame), and which cached conversations a user is in (to announce their presence
/// without scanning them all). The hub fills it from the store and drops a conversation nobody follows.
struct MembershipCache {
    private var membersOf: [String: Set<String>] = [:]
    private var conversationsOf: [String: Set<String>] = [:]

    /// A conversation's participants, if cached.
    subscript(conversation: String) -> Set<String>? {
        membersOf[conversation]
    }

    /// The cached conversations a user is in.
    func conversations(of user: String) -> Set<String> {
        conversationsOf[user] ?? []
    }

    /// Caches a conversation's participants, read from the store.
    mutating func cache(_ members: Set<String>, of conversation: String) {
        evict(conversation)
        membersOf[conversation] = members
        for user in members { conversationsOf[user, default: []].insert(conversation) }
    }

    /// A participant joined a conversation (nothing to do if it is not cached).
    mutating func add(_ user: String, to conversation: String) {
        guard membersOf[conversation]?.insert(user).inserted == true else { return }
        conversationsOf[user, default: []].insert(conversation)
    }

    /// A participant left a conversation.
    mutating func remove(_ user: String, from conversation: String) {
        guard membersOf[conversation]?.remove(user) != nil else { return }
        forget(conversation, of: user)
    }

    /// Drops a conversation from the cache.
    mutating func evict(_ conversation: String) {
        guard let members = membersOf.removeValue(forKey: conversation) else { return }
        for user in members { forget(conversation, of: user) }
    }

    private mutating func forget(_ conversation: String, of user: String) {
        conversationsOf[user]?.remove(conversation)
        if conversationsOf[user]?.isEmpty == true { conversationsOf[user] = nil }
    }
}
