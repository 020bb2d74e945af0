import TypewireCore

/// Who is active in a conversation, ready to show.
public struct TypingState: Hashable, Sendable {
    /// The active members, in stable order (whoever started first stays first), without the current user.
    public var typers: [Typer]
    /// The indicator's text ("Alice is typing…"), or nil when no one is active.
    public var text: String?
    /// The same for assistive technology (no ellipsis, names uncut).
    public var accessibilityText: String?

    /// Creates a state (for previews and tests; the client makes them from what the server says).
    public init(typers: [Typer], text: String?, accessibilityText: String?) {
        self.typers = typers
        self.text = text
        self.accessibilityText = accessibilityText
    }

    /// No one is active.
    public static let idle = TypingState(typers: [], text: nil, accessibilityText: nil)
}
