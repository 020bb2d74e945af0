/// How a bot's reply (a turn) ended, as the final `stream` frame says it to every member.
///
/// A struct rather than an enum, so that a client decodes ends that a newer server adds (it treats an end it
/// does not know as the reply's end all the same).
public struct ReplyEnd: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The end's wire name.
    public var rawValue: String

    /// Creates an end from its wire name.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The bot wrote the whole reply (the default: a final part that names no end).
    public static let finished = ReplyEnd(rawValue: "finished")
    /// A member asked to stop it (`cancel`), and the bot, or after a grace the server, ended it.
    public static let cancelled = ReplyEnd(rawValue: "cancelled")
    /// No part came for the server's reply timeout: the server ended it. Never sent by a bot.
    public static let timedOut = ReplyEnd(rawValue: "timed_out")
    /// The bot could not write it, and says so (with a short `reason`).
    public static let failed = ReplyEnd(rawValue: "failed")

    /// The ends a bot may send with its final part.
    public static let sentByBots: Set<ReplyEnd> = [.finished, .cancelled, .failed]
}
