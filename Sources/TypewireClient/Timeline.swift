/// One timeline of a conversation: its main one, or the thread of one of its messages. The user's
/// activity, messages and bots' replies each belong to one.
struct Timeline: Hashable, Sendable {
    var conversation: String
    /// The parent message's id; nil for the main timeline.
    var thread: String?

    init(_ conversation: String, thread: String? = nil) {
        self.conversation = conversation
        self.thread = thread
    }
}
