import TypewireCore

// Who may act in a conversation: the membership cache and its store lookups.
extension HubShard {
    /// The participants of a conversation, cached; nil if it does not exist.
    ///
    /// A membership change made while the store answered wins: the answer is then used once but not cached.
    /// - Throws: The store's error: a conversation the store cannot read now is not taken for a missing one.
    func members(of conversation: String) async throws -> Set<String>? {
        try await readMembers(of: conversation)?.members
    }

    /// ``members(of:)``, with the participants the store answered when the cache could not (nil if it could,
    /// or if the membership changed while the store answered: the list may be behind it).
    private func readMembers(of conversation: String) async throws -> (members: Set<String>, read: [ConversationMember]?)? {
        if let cached = members[conversation] { return (cached, nil) }
        let tickets = (membership: membershipChanges.ticket, names: members.nameChanges.ticket)
        let participants = try await store.participants(of: conversation)
        guard !participants.isEmpty else { return nil }
        let set = Set(participants.map(\.id))
        guard membershipChanges.isCurrent(tickets.membership) else { return (members[conversation] ?? set, nil) }
        members.cache(set, of: conversation)
        members.keepNames(participants, of: conversation, readWith: tickets.names)
        return (set, participants)
    }

    /// Whether a user is (still) a participant, checked again after any wait; `.admitted` carries the
    /// participants read from the store to tell, if it was asked.
    private func membership(of user: String, in conversation: String) async throws -> Admission {
        guard let (set, read) = try await readMembers(of: conversation), set.contains(user) else { return .refused }
        return members[conversation]?.contains(user) ?? true ? .admitted(read: read) : .refused
    }

    /// Whether a socket's user may act in a conversation (``admit(_:to:from:ref:request:)``).
    enum Admission {
        /// No: the socket was answered.
        case refused
        /// Yes; with the conversation's participants if the store was asked (a `subscribe` lists them, and
        /// need not read them again), nil if the cache answered.
        case admitted(read: [ConversationMember]?)
    }

    /// Whether a socket's user may act in a conversation; if not, the socket is answered:
    /// `unknown_conversation` for a stranger, `unavailable` (try again) when the store cannot say now.
    ///
    /// A member of a cached conversation is let through at once. Anyone else is charged a lookup first,
    /// whatever the cache holds (``ServerConfiguration/Budgets/unknownConversations``; given back if they turn out
    /// to be a member), so that a stranger's answers (`unknown_conversation`, then `rate_limited` once the
    /// budget is spent) are the same for a conversation that does not exist and for one that others have
    /// open: they tell nothing (docs/PROTOCOL.md). Past the budget no store query is made.
    func ensureParticipant(_ user: String, of conversation: String, from id: ConnectionID, ref: String, request: ClientFrame.Kind) async
        -> Bool
    {
        if case .admitted = await admit(user, to: conversation, from: id, ref: ref, request: request) { return true }
        return false
    }

    /// ``ensureParticipant(_:of:from:ref:request:)``, with the participants the store answered, if it was asked.
    func admit(_ user: String, to conversation: String, from id: ConnectionID, ref: String, request: ClientFrame.Kind) async -> Admission {
        if members[conversation]?.contains(user) == true { return .admitted(read: nil) }
        if connections[id]?.budget.allowUnknownLookup(now: now()) == false {
            metrics.droppedByRateLimit.increment()
            reply(
                to: id,
                .init(
                    code: .rateLimited,
                    message: "Too many frames for conversations you are not in: this one was not looked up; try again later.", ref: ref,
                    request: request))
            return .refused
        }
        do {
            let admission = try await membership(of: user, in: conversation)
            guard case .admitted = admission else {
                reply(to: id, Self.unknownConversation(conversation, ref: ref, request: request))
                return .refused
            }
            connections[id]?.budget.refundUnknownLookup()  // it was not unknown
            return admission
        } catch {
            logger.storeFailed("reading a conversation's participants failed", error: error)
            reply(
                to: id,
                .init(code: .unavailable, message: "The server cannot read its storage now; try again shortly.", ref: ref, request: request)
            )
            return .refused
        }
    }

    static func unknownConversation(_ conversation: String, ref: String, request: ClientFrame.Kind) -> ServerFrame.Failure {
        .init(
            code: .unknownConversation, message: "No conversation '\(conversation.prefix(64))' that you are in.", ref: ref, request: request
        )
    }

    /// A user's name may have changed (their token, REST or the server API recorded it): the participant
    /// lists that name them are read again.
    func forgetNames(of user: String) {
        members.forgetNames(of: user)
    }
}
