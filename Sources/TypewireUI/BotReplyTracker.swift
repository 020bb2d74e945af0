import TypewireCore

/// A bot's reply in one conversation, followed through ``BotActivity`` from what the conversation shows:
/// the bot's activity among the typers (thinking, a tool) and the parts of its reply as they stream in.
/// A bot that stops thinking without writing, or goes quiet, leaves no indicator behind.
struct BotReplyTracker {
    private var machine = BotActivity<ContinuousClock.Instant>()
    private var bot: String?

    /// When the reply is given up unless news comes.
    var nextDeadline: ContinuousClock.Instant? { machine.nextDeadline }

    /// The typers changed. - Returns: false (a change never gives a reply up by timeout).
    mutating func typersChanged(_ typers: [Typer], now: ContinuousClock.Instant) -> Bool {
        if let thinker = typers.first(where: { Self.isWorking($0.activity) }) {
            bot = thinker.userID
            if machine.state == .typing { take(.fail, now: now) }  // a new reply after an unfinished one
            switch thinker.activity {
            case .toolUse(let tool): take(.useTool(tool), now: now)
            default: take(.startThinking, now: now)
            }
        } else if let bot, machine.showsThinkingIndicator, !typers.contains(where: { $0.userID == bot }) {
            take(.fail, now: now)  // it stopped without writing a word
        }
        return false
    }

    /// A part of the reply arrived. - Returns: false.
    mutating func chunk(isFinal: Bool, now: ContinuousClock.Instant) -> Bool {
        if machine.state == .idle { take(.startThinking, now: now) }  // its activity came late or never
        take(.chunk(isFinal: isFinal), now: now)
        return false
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

    private static func isWorking(_ activity: Activity) -> Bool {
        switch activity {
        case .thinking, .toolUse: true
        default: false
        }
    }
}
