/// The machine of an assistant's streamed reply: idle → thinking (→ tool use) → typing → idle.
///
/// - `idle`: nothing shows.
/// - `thinking` / `toolUse`: the thinking indicator shows ("Clawd is thinking…", "Clawd is using
///   web_search…"); thinking and tool use may alternate.
/// - `typing`: the first chunk of the reply arrived; the reply streams with a blinking cursor at its end,
///   and the thinking indicator is gone.
/// - Back to `idle` on the final chunk, on an error, on the end the server says (``Input/end(_:)``: a
///   stop the bot did not honour in time, a reply the server timed out), or when nothing arrived for a
///   timeout (a dead bot leaves no indicator behind): ``Configuration/chunkTimeout`` while typing,
///   ``Configuration/thinkingTimeout`` while thinking. ``lastEnd`` says how the last reply ended.
///
/// An input that makes no sense in the current state (a chunk before thinking, thinking in the middle of
/// a reply) throws ``BotActivityError`` and leaves the state as it was.
public struct BotActivity<Instant: InstantProtocol<Duration>>: Sendable {
    /// The timeouts of the machine.
    public struct Configuration: Sendable, Hashable {
        /// How long typing lasts without a chunk before the reply is given up. Default 10 s.
        public var chunkTimeout: Duration
        /// How long thinking or tool use lasts without news before it is given up. Default 60 s.
        public var thinkingTimeout: Duration

        /// Creates a configuration.
        public init(chunkTimeout: Duration = .seconds(10), thinkingTimeout: Duration = .seconds(60)) {
            self.chunkTimeout = chunkTimeout
            self.thinkingTimeout = thinkingTimeout
        }
    }

    /// Where the reply stands.
    public enum State: Hashable, Sendable {
        /// No reply under way.
        case idle
        /// Working on the reply, nothing written yet.
        case thinking
        /// Running a tool; the detail names it.
        case toolUse(String?)
        /// Writing the reply: chunks are arriving.
        case typing
    }

    /// What the bot reports.
    public enum Input: Hashable, Sendable {
        /// The bot started working on a reply (or went back to thinking after a tool).
        case startThinking
        /// The bot runs a tool.
        case useTool(String?)
        /// A chunk of the reply; `isFinal` ends it.
        case chunk(isFinal: Bool)
        /// The reply failed.
        case fail
        /// The server ended the reply, as its final `stream` frame said to every member.
        case end(ReplyEnd)
    }

    /// The machine's timeouts.
    public let configuration: Configuration
    /// The current state.
    public private(set) var state: State = .idle
    /// When the current state lapses, if it is not idle.
    public private(set) var nextDeadline: Instant?
    /// How the last reply ended, once it has (nil while one is under way, and before the first): a final
    /// chunk is `finished`, a failure `failed`, a timeout of this machine `timedOut`, and an ``Input/end(_:)``
    /// what the server said.
    public private(set) var lastEnd: ReplyEnd?

    /// Creates an idle machine.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Whether the thinking indicator shows (thinking or tool use).
    public var showsThinkingIndicator: Bool {
        switch state {
        case .thinking, .toolUse: true
        case .idle, .typing: false
        }
    }

    /// Whether the streaming cursor shows at the end of the reply.
    public var showsStreamingCursor: Bool { state == .typing }

    /// The activity to put on the wire for this state.
    public var activity: MemberActivity {
        switch state {
        case .idle: .none
        case .thinking: .thinking
        case .toolUse(let detail): .toolUse(detail)
        case .typing: .typing
        }
    }

    /// Takes one input.
    /// - Returns: The new state.
    /// - Throws: ``BotActivityError`` if the input is not allowed in the current state; the state is kept.
    @discardableResult
    public mutating func handle(_ input: Input, now: Instant) throws(BotActivityError) -> State {
        let next: State
        switch (state, input) {
        case (.idle, .startThinking), (.thinking, .startThinking), (.toolUse, .startThinking):
            next = .thinking
        case (.thinking, .useTool(let detail)), (.toolUse, .useTool(let detail)):
            next = .toolUse(detail)
        case (.thinking, .chunk(let isFinal)), (.toolUse, .chunk(let isFinal)), (.typing, .chunk(let isFinal)):
            next = isFinal ? .idle : .typing
        case (.thinking, .fail), (.toolUse, .fail), (.typing, .fail), (.thinking, .end), (.toolUse, .end), (.typing, .end):
            next = .idle
        case (.idle, _), (.typing, .startThinking), (.typing, .useTool):
            throw BotActivityError(from: state, input: input)
        }
        enter(next, now: now)
        switch input {
        case .startThinking, .useTool: lastEnd = nil
        case .chunk(let isFinal): lastEnd = isFinal ? .finished : nil
        case .fail: lastEnd = .failed
        case .end(let end): lastEnd = end
        }
        return next
    }

    /// Lets time pass: a state whose timeout ran out goes back to idle.
    /// - Returns: Whether the reply was given up.
    @discardableResult
    public mutating func tick(now: Instant) -> Bool {
        guard let deadline = nextDeadline, now >= deadline else { return false }
        enter(.idle, now: now)
        lastEnd = .timedOut
        return true
    }

    private mutating func enter(_ next: State, now: Instant) {
        state = next
        switch next {
        case .idle: nextDeadline = nil
        case .thinking, .toolUse: nextDeadline = now + configuration.thinkingTimeout
        case .typing: nextDeadline = now + configuration.chunkTimeout
        }
    }
}

/// An input that the bot activity machine does not allow in its current state.
public struct BotActivityError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The state the machine was in.
    public let stateDescription: String
    /// The refused input.
    public let inputDescription: String

    init<Instant>(from state: BotActivity<Instant>.State, input: BotActivity<Instant>.Input) {
        self.stateDescription = "\(state)"
        self.inputDescription = "\(input)"
    }

    public var description: String {
        "A bot cannot take '\(inputDescription)' while '\(stateDescription)': a reply goes idle → thinking (→ tool use) → typing → idle; start thinking before streaming, and end a reply with a final chunk before starting another."
    }
}
