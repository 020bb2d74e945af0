import TypewireCore

/// What became of a member's `read` (``ChatStore/markRead(_:in:by:at:privately:)``).
public enum ReadOutcome: Sendable, Hashable {
    /// A mark of the member's in the message's timeline (`thread` nil: the main one) moved forward to it:
    /// `own`, the one their unread count is counted from (tell their devices); `shared`, the one the others
    /// see (a read that was not private: tell the members). At least one of the two.
    case moved(ReadMark, thread: String?, own: Bool, shared: Bool)
    /// The mark is at this message or past it already: nothing changed.
    case unchanged
    /// No such message in the conversation.
    case noSuchMessage
}

/// What became of a member's `delivered` (``ChatStore/markDelivered(_:in:by:at:)``).
public enum DeliveredOutcome: Sendable, Hashable {
    /// The member's delivered mark in the message's timeline (`thread` nil: the main one) moved forward to it.
    case moved(ReadMark, thread: String?)
    /// The mark is at this message or past it already, or the member hides their reading: nothing changed.
    case unchanged
    /// No such message in the conversation.
    case noSuchMessage
}

/// What became of a member's `markUnread` (``ChatStore/markUnread(from:in:by:at:)``).
public enum UnreadOutcome: Sendable, Hashable {
    /// The member's own mark in the message's timeline (`thread` nil: the main one) moved back to `mark`,
    /// the newest message older than it there (nil: none, nothing there is read now).
    case moved(to: String?, thread: String?)
    /// The mark was before this message already: nothing changed.
    case unchanged
    /// No such message in the conversation.
    case noSuchMessage
}
