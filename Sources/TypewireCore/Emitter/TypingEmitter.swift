/// The sender's machine: turns a composer's events into the few frames that keep others' indicators true.
///
/// The machine is a pure value: every input carries the current instant, and the machine answers with the
/// frame to send, if any. The shell that owns the real clock calls ``tick(now:)`` when ``nextDeadline``
/// passes. Nothing here sleeps, so every rule is tested by handing it instants.
///
/// Rules:
/// - The first non-empty text change sends ``Frame/start`` at once. Whitespace-only text counts as empty.
/// - While the user counts as typing (a keystroke within ``Configuration/idleTimeout``), a
///   ``Frame/refresh`` every ``Configuration/refreshInterval`` keeps the server's entry alive: never more
///   often, and never less often, whether keys come fast or pause. A gap between two frames therefore
///   never exceeds the interval, so a server ttl a little over twice the interval survives one lost
///   refresh without the indicator flickering (docs/FIDELITY.md measures this).
/// - No keystroke for ``Configuration/idleTimeout`` sends ``Frame/stop``.
/// - Sending the message, clearing the input, leaving the conversation and going to the background send
///   ``Frame/stop`` at once, and only if a start was sent.
/// - After a stop, the next keystroke starts again at once.
/// - While the connection is lost nothing is sent; when it comes back and the user is still typing, a
///   start goes out at once (the server forgot the state when the socket closed).
///
/// Work per keystroke is O(1) for text that starts with a visible character; it allocates nothing.
///
/// On ``Input/messageSent`` the stop need not travel as a frame of its own: a Typewire server clears the
/// sender's activity when it stores the message, before it fans the message out.
public struct TypingEmitter<Instant: InstantProtocol<Duration>>: Sendable {
    /// The intervals the emitter works with.
    public struct Configuration: Sendable, Hashable {
        /// The time between two frames that say "still typing" (the throttle). Default 2 s.
        public var refreshInterval: Duration
        /// How long without a keystroke until the emitter sends a stop. Default 3 s.
        public var idleTimeout: Duration

        /// Creates a configuration.
        /// - Parameters:
        ///   - refreshInterval: The least time between two frames while typing goes on.
        ///   - idleTimeout: The time without a keystroke after which a stop is sent.
        public init(refreshInterval: Duration = .seconds(2), idleTimeout: Duration = .seconds(3)) {
            self.refreshInterval = refreshInterval
            self.idleTimeout = idleTimeout
        }
    }

    /// What the composer reports.
    public enum Input: Sendable, Hashable {
        /// The text in the input field changed to this text.
        case textChanged(String)
        /// The user sent the message.
        case messageSent
        /// The input field was cleared.
        case inputCleared
        /// The user left the conversation's screen.
        case leftConversation
        /// The app went to the background (or the browser tab was hidden).
        case wentToBackground
        /// The connection to the server was lost.
        case connectionLost
        /// The connection to the server is back.
        case connectionRestored
    }

    /// The frames the emitter asks its shell to send.
    public enum Frame: Sendable, Hashable {
        /// The user began typing.
        case start
        /// The user is still typing.
        case refresh
        /// The user stopped typing.
        case stop

        /// The activity this frame puts on the wire.
        public var activity: MemberActivity { self == .stop ? .none : .typing }
    }

    /// The emitter's configuration.
    public let configuration: Configuration

    /// Whether a start was sent and no stop since: what the server believes.
    public private(set) var isAnnounced = false
    private var hasText = false
    private var isConnected = true
    private var lastKeystroke: Instant?
    private var lastSent: Instant?

    /// Creates an idle emitter.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Handles one event of the composer.
    /// - Parameters:
    ///   - input: What happened.
    ///   - now: When it happened.
    /// - Returns: The frame to send, if any.
    public mutating func handle(_ input: Input, now: Instant) -> Frame? {
        switch input {
        case .textChanged(let text):
            guard Self.hasVisibleCharacter(text) else {
                hasText = false
                return announceStop()
            }
            hasText = true
            lastKeystroke = now
            return keystroke(now: now)
        case .messageSent, .inputCleared:
            hasText = false
            return announceStop()
        case .leftConversation, .wentToBackground:
            return announceStop()
        case .connectionLost:
            isConnected = false
            isAnnounced = false
            return nil
        case .connectionRestored:
            isConnected = true
            guard hasText, let lastKeystroke, now < lastKeystroke + configuration.idleTimeout else { return nil }
            return announceStart(now: now)
        }
    }

    /// When the emitter next needs ``tick(now:)``: the next refresh or the idle stop, whichever comes first.
    public var nextDeadline: Instant? {
        guard isAnnounced, let lastKeystroke, let lastSent else { return nil }
        return min(lastKeystroke + configuration.idleTimeout, lastSent + configuration.refreshInterval)
    }

    /// Lets time pass: sends the idle stop or a due refresh.
    /// - Parameter now: The current instant; calling early or late is harmless.
    /// - Returns: The frame to send, if any.
    public mutating func tick(now: Instant) -> Frame? {
        guard isAnnounced, let lastKeystroke else { return nil }
        if now >= lastKeystroke + configuration.idleTimeout {
            return announceStop()
        }
        if let lastSent, now >= lastSent + configuration.refreshInterval {
            self.lastSent = now
            return .refresh
        }
        return nil
    }

    private mutating func keystroke(now: Instant) -> Frame? {
        guard isConnected, !isAnnounced else { return nil }
        return announceStart(now: now)
    }

    private mutating func announceStart(now: Instant) -> Frame {
        isAnnounced = true
        lastSent = now
        return .start
    }

    private mutating func announceStop() -> Frame? {
        guard isAnnounced else { return nil }
        isAnnounced = false
        return .stop
    }

    /// Whether the text holds anything but whitespace; stops at the first visible scalar, and looks up
    /// Unicode properties only for scalars outside ASCII.
    static func hasVisibleCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar.isASCII ? !(scalar == " " || ("\t"..."\r").contains(scalar)) : !scalar.properties.isWhitespace
        }
    }
}
