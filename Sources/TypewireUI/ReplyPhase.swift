/// Where a bot's reply in a conversation stands, as the UI shows it.
public enum ReplyPhase: Hashable, Sendable {
    /// No reply under way.
    case idle
    /// The bot works on a reply: the thinking indicator shows.
    case thinking
    /// The bot runs a tool (named, if it said which): the thinking indicator names it.
    case tool(String?)
    /// The reply streams in: its text so far, with a cursor at its end.
    case streaming(String)
}
