/// The reader's machine: turns "the user has seen up to this message" into at most one `read` frame per
/// interval for one timeline, and loses none across a dropped connection.
///
/// A pure value, like ``TypingEmitter``: each input carries the current instant, and the machine answers
/// with the report to send, if any; the shell calls ``tick(now:)`` at ``nextDeadline``.
///
/// Rules:
/// - The first report goes out at once; after it, at most one per ``interval`` (default 1 s): a report
///   made sooner waits, and a later one replaces it (only the newest mark matters: the server moves marks
///   forward only, so the caller reports the newest message seen, never an older one). A "mark unread"
///   (``Report/marksUnread``) is a report too: it replaces a read that waits, and a later read replaces it.
/// - While the connection is lost nothing is sent; the waiting report, or else the last one sent (it may
///   not have reached the server), goes out when the connection is back.
/// - ``flush(now:)`` hands over what waits at once, whatever the interval: the screen is closing, and a
///   message seen before it closed counts as read.
public struct ReadReporter<Instant: InstantProtocol<Duration>>: Sendable {
    /// A report to send: the member has read up to `messageId` (or marks the timeline unread from it).
    public struct Report: Hashable, Sendable {
        /// The newest message seen; with ``marksUnread``, the first to show unread.
        public var messageId: String
        /// Whether the read is private: the member's own count clears and nobody is told.
        public var isPrivate: Bool
        /// Whether the member marks the timeline unread from `messageId` on (`markUnread`), rather than
        /// read up to it.
        public var marksUnread: Bool
        /// On a typing-only server, where `messageId` is the app's own id: when the app says it was sent
        /// (milliseconds since 1970; ``ClientFrame/Read/sentAt``). Nil on a server that keeps messages.
        public var sentAt: Int64?

        /// Creates a report.
        public init(messageId: String, isPrivate: Bool = false, marksUnread: Bool = false, sentAt: Int64? = nil) {
            self.messageId = messageId
            self.isPrivate = isPrivate
            self.marksUnread = marksUnread
            self.sentAt = sentAt
        }
    }

    /// What the shell reports.
    public enum Input: Hashable, Sendable {
        /// The user has seen the timeline up to this message.
        case read(Report)
        /// The connection to the server was lost.
        case connectionLost
        /// The connection to the server is back.
        case connectionRestored
    }

    /// The least time between two reports.
    public let interval: Duration
    /// The report waiting for the interval or the connection, if any.
    public private(set) var waiting: Report?
    private var lastSent: (report: Report, at: Instant)?
    private var isConnected = true

    /// Creates a reporter that has sent nothing.
    /// - Parameter interval: The least time between two reports (default 1 s).
    public init(interval: Duration = .seconds(1)) {
        self.interval = interval
    }

    /// Handles one input.
    /// - Returns: The report to send now, if any.
    public mutating func handle(_ input: Input, now: Instant) -> Report? {
        switch input {
        case .read(let report):
            waiting = report
            return tick(now: now)
        case .connectionLost:
            isConnected = false
            if waiting == nil { waiting = lastSent?.report }
            return nil
        case .connectionRestored:
            isConnected = true
            return tick(now: now)
        }
    }

    /// When the waiting report is due (nil: nothing waits, or the connection is down).
    public var nextDeadline: Instant? {
        guard isConnected, waiting != nil else { return nil }
        return lastSent.map { $0.at + interval }
    }

    /// Lets time pass: the waiting report, once its interval passed.
    /// - Parameter now: The current instant; calling early or late is harmless.
    public mutating func tick(now: Instant) -> Report? {
        guard isConnected, let report = waiting else { return nil }
        if let lastSent, now < lastSent.at + interval { return nil }
        return send(report, now: now)
    }

    /// Hands over the waiting report at once (the timeline's screen is closing); nil if nothing waits or the
    /// connection is down (then it waits for the connection).
    public mutating func flush(now: Instant) -> Report? {
        guard isConnected, let report = waiting else { return nil }
        return send(report, now: now)
    }

    private mutating func send(_ report: Report, now: Instant) -> Report {
        waiting = nil
        lastSent = (report, now)
        return report
    }
}
