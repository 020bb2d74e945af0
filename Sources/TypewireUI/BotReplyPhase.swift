/// One bot's reply in a conversation, as the UI shows it beside the others: "Clawd is thinking…" while
/// "Scout" streams its reply.
public struct BotReplyPhase: Hashable, Sendable, Identifiable {
    /// The bot's user id.
    public var bot: String
    /// Its display name, if known.
    public var name: String?
    /// Where its reply stands.
    public var phase: ReplyPhase

    /// Creates a phase (for previews and tests).
    public init(bot: String, name: String? = nil, phase: ReplyPhase) {
        self.bot = bot
        self.name = name
        self.phase = phase
    }

    /// The bot: one reply per bot at a time.
    public var id: String { bot }
}
