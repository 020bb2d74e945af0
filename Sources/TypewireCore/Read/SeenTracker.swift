/// When a message counts as seen: it was on screen, without a break, for ``dwell`` while the screen was
/// active (shown, the app in the foreground). A message scrolled past, or on a screen under a call's window
/// or a locked phone, is not seen.
///
/// A pure value, like ``TypingEmitter``: the screen tells it what is visible (each message with its place
/// in the timeline's order) and whether it is active, with the current instant; it answers with the message
/// to report read (the newest seen, and only one newer than the last it answered), and the shell calls
/// ``tick(now:)`` at ``nextDeadline``. The report then goes through ``ReadReporter`` (at most one a second).
public struct SeenTracker<Instant: InstantProtocol<Duration>>: Sendable {
    /// A message on screen.
    public struct Visible: Hashable, Sendable {
        /// The server's id of the message.
        public var messageId: String
        /// Its place in the timeline's order: a key that grows with newer messages and does not change
        /// when older ones load (e.g. its `sentAt`; not its index in a list that pages).
        public var position: Int64

        /// Creates a visible message.
        public init(messageId: String, position: Int64) {
            self.messageId = messageId
            self.position = position
        }
    }

    /// How long a message stays on an active screen before it counts as seen (default 1 s).
    public let dwell: Duration
    /// The place of the last message answered: an older one is not answered again.
    public private(set) var reportedPosition: Int64?
    private var visible: [String: (position: Int64, since: Instant?)] = [:]
    /// Messages on screen when the user marked the timeline unread: not seen again until they leave the
    /// screen (or the screen closes), or the mark would be undone a second later.
    private var held: Set<String> = []
    private var isActive = false

    /// Creates a tracker of an inactive screen that shows nothing.
    public init(dwell: Duration = .seconds(1)) {
        self.dwell = dwell
    }

    /// The messages on screen now (all of them: one that is not in the list left the screen).
    /// - Returns: The message now seen, to report read, if any.
    public mutating func visibleChanged(_ messages: [Visible], now: Instant) -> String? {
        var next: [String: (position: Int64, since: Instant?)] = [:]
        for message in messages {
            let isHeld = held.contains(message.messageId)
            next[message.messageId] = (message.position, isHeld ? nil : visible[message.messageId]?.since ?? (isActive ? now : nil))
        }
        held.formIntersection(next.keys)
        visible = next
        return tick(now: now)
    }

    /// The user marked the timeline unread from the message at `position` on: that message and the newer
    /// ones are answered again once seen, but those on screen now only after they left it (or the screen
    /// closed and opened again).
    public mutating func markedUnread(from position: Int64) {
        let before = position.subtractingReportingOverflow(1)
        reportedPosition = before.overflow ? nil : min(reportedPosition ?? .min, before.partialValue)
        held = Set(visible.keys)
        for id in held { visible[id]!.since = nil }
    }

    /// The screen became active (shown, the app in the foreground) or stopped being so; while inactive
    /// nothing is seen, and what stays on screen starts its dwell again when it is active again.
    /// - Returns: The message now seen, to report read, if any.
    public mutating func activeChanged(_ active: Bool, now: Instant) -> String? {
        guard active != isActive else { return nil }
        isActive = active
        if !active { held = [] }
        for id in visible.keys where !held.contains(id) { visible[id]!.since = active ? now : nil }
        return tick(now: now)
    }

    /// When the next message on screen will have been seen (nil: none is on its way to it).
    public var nextDeadline: Instant? {
        candidates.compactMap { $0.since.map { $0 + dwell } }.min()
    }

    /// Lets time pass.
    /// - Returns: The newest message seen by now, if it is newer than the last answered.
    public mutating func tick(now: Instant) -> String? {
        let seen = visible.filter { entry in
            entry.value.since.map { $0 + dwell <= now } == true && entry.value.position > (reportedPosition ?? .min)
        }
        guard let newest = seen.max(by: { $0.value.position < $1.value.position }) else { return nil }
        reportedPosition = newest.value.position
        return newest.key
    }

    /// The visible messages newer than the last answered.
    private var candidates: [(position: Int64, since: Instant?)] {
        visible.values.filter { $0.position > (reportedPosition ?? .min) }
    }
}
