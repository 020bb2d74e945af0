import TypewireCore

extension HubShard {
    /// Who is active in a conversation now, as its `activity` frame carries it (no viewer's blocks applied).
    func activity(in conversation: String) -> ActivityUpdate {
        capped(board.entries(in: conversation), in: conversation, serverTime: now())
    }

    /// Whether a user has a socket open on any node.
    func presence(of user: String) -> Bool {
        isOnline(user)
    }
}
