import TypewireCore

/// Who is active in a conversation, ready to show.
public struct TypingState: Hashable, Sendable {
    /// The active members, in stable order (whoever started first stays first), without the current user.
    public var typers: [Typer]
    /// The indicator's text ("Alice is typing…"), or nil when no one is active.
    public var text: String?
    /// The same for assistive technology (no ellipsis, names uncut).
    public var accessibilityText: String?
    /// In the main timeline's state: who writes in each thread, by the parent message's id, for the parent
    /// to show ("2 people are replying…"); threads no one writes in are absent. Empty in a thread's state.
    public var replying: [String: ThreadReplying]

    /// Creates a state (for previews and tests; the client makes them from what the server says).
    public init(typers: [Typer], text: String?, accessibilityText: String?, replying: [String: ThreadReplying] = [:]) {
        self.typers = typers
        self.text = text
        self.accessibilityText = accessibilityText
        self.replying = replying
    }

    /// No one is active.
    public static let idle = TypingState(typers: [], text: nil, accessibilityText: nil)
}

/// The members who write in one message's thread, as the message shows it.
public struct ThreadReplying: Hashable, Sendable {
    /// How many members (other than the current user) are active in the thread.
    public var count: Int
    /// "2 people are replying…" (``/TypewireCore/TypingText/replyingText(count:)``).
    public var text: String
    /// The same for assistive technology: no ellipsis.
    public var accessibilityText: String

    /// Creates a count with its words (for previews and tests; the client makes them).
    public init(count: Int, text: String, accessibilityText: String) {
        self.count = count
        self.text = text
        self.accessibilityText = accessibilityText
    }
}
