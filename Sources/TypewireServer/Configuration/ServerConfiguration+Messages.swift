extension ServerConfiguration {
    /// Messages' sizes, history and streamed replies.
    public struct Messages: Sendable {
        /// The longest message text, in characters. Default 10 000.
        public var maxLength = 10_000
        /// How many recent messages `subscribed` carries. Default 50.
        public var recentCount = 50
        /// The most bytes of text the recent messages of one `subscribed` carry, newest first (at least the
        /// newest message); older ones are read with `GET /v1/conversations/:id/messages`. Default 64 KiB.
        public var maxRecentBytes = 64 * 1_024
        /// Replies one bot may stream at once (each up to ``maxLength``); a part that would start one more
        /// is refused with `rate_limited`. Default 10.
        public var maxOpenReplies = 10
        /// How long a streamed reply may stay silent; past it the server ends it for every member
        /// (``ReplyEnd/timedOut``) and refuses its later parts (clients stop showing it after the same time
        /// by themselves if the end does not reach them, `BotActivity`'s chunk timeout). Default 10 s.
        public var replyTimeout = Duration.seconds(10)
        /// How long a bot has to end a reply a member asked to stop (`cancel`); past it the server ends it
        /// for every member (``ReplyEnd/cancelled``) and refuses its later parts. Default 2 s.
        public var stopGrace = Duration.seconds(2)
        /// The server's rule for read receipts (`--read-receipts`), which no user's setting loosens: `on`
        /// (each user chooses), `off` (no one sees anyone's reading; unread counts still work), `reciprocal`
        /// (a user who hides their reading sees no one's). Default `on`.
        public var readReceipts = ReadReceiptPolicy.on

        /// The defaults.
        public init() {}
    }
}
