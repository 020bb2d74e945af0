import TypewireCore

extension HubShard {
    /// Who is active in a conversation now, as its `activity` frame carries it (no viewer's blocks applied).
    func activity(in conversation: String) -> ActivityUpdate {
        capped(board.entries(in: conversation), in: conversation, serverTime: now())
    }
}
