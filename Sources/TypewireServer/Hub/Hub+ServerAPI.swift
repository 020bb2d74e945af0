import TypewireCore

extension Hub {
    /// Who is active in a conversation now, as its `activity` frame carries it (no viewer's blocks applied).
    public func activity(in conversation: String) -> ActivityUpdate {
        capped(board.entries(in: conversation), in: conversation, serverTime: now())
    }

    /// Whether a user has a socket open on any node.
    public func presence(of user: String) -> Bool {
        isOnline(user)
    }

    /// A conversation was deleted: each former participant is removed as by ``participantRemoved(_:from:)``
    /// (activity cleared, subscriptions ended at once), on every node.
    public func conversationDeleted(_ conversation: String, participants: [String]) {
        for user in participants { participantRemoved(user, from: conversation) }
    }
}
