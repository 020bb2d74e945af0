import TypewireCore

/// What the client keeps for one bot reply under way.
struct ReplyState {
    /// The conversation, and the thread the reply answers in.
    let timeline: Timeline
    var machine: BotActivity<ContinuousClock.Instant>
    /// The whole reply so far.
    var text = ""
    /// Written but not yet streamed (parts are coalesced to one frame per stream interval).
    var unsent = ""
    var lastStreamed: ContinuousClock.Instant?
    /// When the bot's activity last went out; it is sent again every refresh interval, or it would expire.
    var lastActivity: ContinuousClock.Instant?
    /// The end was sent; the reply waits for its `ack`.
    var isFinishing = false
    /// Why the server refused the reply, kept until the bot's next call on it throws it.
    var failure: TypewireClientError?
    var timer: Task<Void, Never>?
    /// The member the reply answers, sent with each part: only they (and the bot) may stop it.
    var asker: String?
    /// Where the stops members ask for go (``BotReply/cancellations``); finished when the reply ends.
    var cancellations: AsyncStream<String>.Continuation

    /// The client-side id under which the finished reply is stored (``/TypewireCore/ReplyID``).
    static func clientMessageId(of messageId: String) -> String { ReplyID.clientMessageId(ofReply: messageId) }
}
