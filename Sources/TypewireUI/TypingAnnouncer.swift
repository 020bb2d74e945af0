import TypewireClient
import TypewireCore

/// What VoiceOver says about who is active, as a machine: input the typing state and `now`, out the
/// sentence to announce (or nil) and the next deadline.
///
/// Rules:
/// - Someone who starts (a member not in the last announcement) is announced with the whole state's
///   accessibility text: "Alice is typing", "Alice, Bob, and 2 others are typing", "Clawd is thinking".
/// - Nothing else is: a refresh, a stop, a bot that goes from thinking to a tool to its streamed reply
///   (announced once, when it began), someone already announced.
/// - At most one announcement per ``minimumInterval`` (5 s by default): in a busy group, those who start
///   within it are announced together, once it has passed (``tick(_:now:)`` at ``nextDeadline``), if
///   they are still active then.
/// - Someone who stops and starts again later is announced again.
public struct TypingAnnouncer<Instant: InstantProtocol<Duration>>: Sendable {
    /// The least time between two announcements.
    public let minimumInterval: Duration
    private var announced: Set<String> = []
    private var lastAnnouncement: Instant?
    /// Someone started within the interval and waits to be announced.
    private var isWaiting = false

    /// An announcer that speaks at most once per `minimumInterval`.
    public init(minimumInterval: Duration = .seconds(5)) {
        self.minimumInterval = minimumInterval
    }

    /// When ``tick(_:now:)`` may announce those who started within the interval; nil if no one waits.
    public var nextDeadline: Instant? {
        guard isWaiting, let lastAnnouncement else { return nil }
        return lastAnnouncement.advanced(by: minimumInterval)
    }

    /// The typing state changed. - Returns: The sentence to announce now, if any.
    public mutating func stateChanged(_ state: TypingState, now: Instant) -> String? {
        let active = Set(state.typers.map(\.userID))
        announced.formIntersection(active)
        isWaiting = false
        guard !active.isSubset(of: announced), let text = state.accessibilityText else { return nil }
        if let lastAnnouncement, now < lastAnnouncement.advanced(by: minimumInterval) {
            isWaiting = true
            return nil
        }
        announced = active
        lastAnnouncement = now
        return text
    }

    /// Time passed: at ``nextDeadline``, announces the current state if someone in it was not announced.
    public mutating func tick(_ state: TypingState, now: Instant) -> String? {
        guard let deadline = nextDeadline, now >= deadline else { return nil }
        return stateChanged(state, now: now)
    }
}
