import TypewireCore

/// One bot's reply in one conversation, followed through ``/TypewireCore/BotActivity`` from what the conversation shows:
/// the bot's activity among the typers (thinking, a tool) and the parts of its reply as they stream in.
/// A bot that stops thinking without writing, or goes quiet, leaves no indicator behind.
struct BotReplyTracker {
    private var machine = BotActivity<ContinuousClock.Instant>()

    /// When the reply is given up unless news comes.
    var nextDeadline: ContinuousClock.Instant? { machine.nextDeadline }

    /// Whether no reply is under way.
    var isIdle: Bool { machine.state == .idle }

    /// The bot's activity among the typers changed; nil: it is not among them any more.
    mutating func activityChanged(_ activity: MemberActivity?, now: ContinuousClock.Instant) {
        if let activity, Self.isWorking(activity) {
            if machine.state == .typing { take(.fail, now: now) }  // a new reply after an unfinished one
            if case .toolUse(let tool) = activity {
                if machine.state == .idle { take(.startThinking, now: now) }  // its thinking came late or never
                take(.useTool(tool), now: now)
            } else {
                take(.startThinking, now: now)
            }
        } else if activity == nil, machine.showsThinkingIndicator {
            take(.fail, now: now)  // it stopped without writing a word
        }
    }

    /// A part of the reply arrived.
    mutating func chunk(isFinal: Bool, now: ContinuousClock.Instant) {
        if machine.state == .idle { take(.startThinking, now: now) }  // its activity came late or never
        take(.chunk(isFinal: isFinal), now: now)
    }

    /// Time passed. - Returns: Whether the reply was given up (its bot went quiet).
    mutating func tick(now: ContinuousClock.Instant) -> Bool {
        machine.tick(now: now)
    }

    /// The phase to show, with the text of the reply streaming now.
    func phase(streamingText: String?) -> ReplyPhase {
        switch machine.state {
        case .idle: .idle
        case .thinking: .thinking
        case .toolUse(let tool): .tool(tool)
        case .typing: .streaming(streamingText ?? "")
        }
    }

    /// Feeds the machine; an input that does not fit its state is dropped (what a conversation shows of
    /// a bot can come late or not at all).
    private mutating func take(_ input: BotActivity<ContinuousClock.Instant>.Input, now: ContinuousClock.Instant) {
        _ = try? machine.handle(input, now: now)
    }

    /// Whether an activity is a bot working on a reply it has not begun to write.
    static func isWorking(_ activity: MemberActivity) -> Bool {
        switch activity {
        case .thinking, .toolUse: true
        default: false
        }
    }
}
