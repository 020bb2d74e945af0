import TypewireCore

/// The participants of the conversations a node is busy with, indexed both ways: who is in a conversation
/// (checked on every frame), and which cached conversations a user is in (to announce their presence
/// without scanning them all). The hub fills it from the store and drops a conversation nobody follows.
///
/// With them, on a single node (``keepsNames``), the list a `subscribe` answers with (each participant's name)
/// (``keepNames(_:of:readAt:)``): gone when someone joins or leaves, or when a participant's name may have changed.
struct MembershipCache {
    /// Whether participant lists are kept: not in a cluster, where a name changed through another node is not
    /// told to this one.
    let keepsNames: Bool
    /// Changes when a user's name may have: a list read before is not kept.
    private(set) var nameChanges = ChangeCount()
    private var membersOf: [String: Set<String>] = [:]
    private var conversationsOf: [String: Set<String>] = [:]
    private var namedOf: [String: [ConversationMember]] = [:]

    init(keepsNames: Bool = true) {
        self.keepsNames = keepsNames
    }

    /// A conversation's participants, if cached.
    subscript(conversation: String) -> Set<String>? {
        membersOf[conversation]
    }

    /// A conversation's participants with their names, as last kept.
    func participants(of conversation: String) -> [ConversationMember]? {
        namedOf[conversation]
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

    /// Keeps a cached conversation's participants with their names, read with `ticket` of ``nameChanges``,
    /// if no name may have changed since and they are its members as cached (a change of membership while
    /// they were read shows there).
    mutating func keepNames(_ participants: [ConversationMember], of conversation: String, readWith ticket: ChangeCount.Ticket) {
        guard keepsNames, nameChanges.isCurrent(ticket), let members = membersOf[conversation], members.count == participants.count,
            participants.allSatisfy({ members.contains($0.id) })
        else { return }
        namedOf[conversation] = participants
    }

    /// A user's name may have changed: the lists that name them go, and those being read will not be kept.
    mutating func forgetNames(of user: String) {
        nameChanges.changed()
        for conversation in conversations(of: user) { namedOf[conversation] = nil }
    }

    /// A participant joined a conversation (nothing to do if it is not cached).
    mutating func add(_ user: String, to conversation: String) {
        namedOf[conversation] = nil
        guard membersOf[conversation]?.insert(user).inserted == true else { return }
        conversationsOf[user, default: []].insert(conversation)
    }

    /// A participant left a conversation.
    mutating func remove(_ user: String, from conversation: String) {
        namedOf[conversation] = nil
        guard membersOf[conversation]?.remove(user) != nil else { return }
        forget(conversation, of: user)
    }

    /// Drops a conversation from the cache.
    mutating func evict(_ conversation: String) {
        namedOf[conversation] = nil
        guard let members = membersOf.removeValue(forKey: conversation) else { return }
        for user in members { forget(conversation, of: user) }
    }

    private mutating func forget(_ conversation: String, of user: String) {
        conversationsOf[user]?.remove(conversation)
        if conversationsOf[user]?.isEmpty == true { conversationsOf[user] = nil }
    }
}
