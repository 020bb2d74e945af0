/// The receiver's view of who is active in one conversation.
///
/// The roster applies the server's `activity` updates (each the whole state of the conversation) and
/// keeps only what a person should see:
/// - not the current user (their own typing on another device is not news to them);
/// - only current participants, and not users known to be offline;
/// - no entry past its `expiresAt`, measured on the roster's own clock: each update carries the server's
///   time, so an entry's remaining life is `expiresAt - serverTime` from the moment it arrived, whatever
///   the skew between the two clocks. A lost stop or a dead sender never outlives its expiry.
/// - one entry per user, even if the user is active on two devices;
/// - only its own timeline: the main timeline's roster shows no one typing in a thread, a thread's roster
///   (``thread``) only those typing in that thread;
/// - a stable order: whoever started first stays first, so names do not jump as others come and go.
///
/// Like the other machines, the roster is a pure value; a shell calls ``removeExpired(now:)`` at
/// ``nextDeadline`` and republishes ``typers(at:)``.
public struct TypingRoster<Instant: InstantProtocol<Duration>>: Sendable {
    private struct Entry: Sendable {
        var typer: Typer
        var since: Int64
        var expiresAt: Instant

        /// Folds a second entry of the same user (another device) into this one: the earliest start keeps
        /// the place, the latest expiry keeps it alive, the most recent activity is shown.
        mutating func merge(_ other: Self) {
            if other.since > since { typer = other.typer }
            since = min(since, other.since)
            expiresAt = max(expiresAt, other.expiresAt)
        }
    }

    /// The user this roster is shown to.
    public let currentUserID: String
    /// The thread it shows (the parent message's id); nil: the conversation's main timeline.
    public let thread: String?
    /// The conversation's current participants.
    public private(set) var participants: Set<String>
    /// Users whom presence reported offline.
    public private(set) var offlineUsers: Set<String> = []
    /// How many active members the last update counted (`total`) beyond those it listed: a large group's
    /// update lists only the first few. Pass `typers.count + unlisted` to `TypingText` as the total.
    public private(set) var unlisted = 0
    private var entries: [Entry] = []

    /// Creates an empty roster.
    /// - Parameters:
    ///   - currentUserID: The user who looks at the indicator.
    ///   - participants: The conversation's participants.
    ///   - thread: The thread it shows; nil (the default) for the main timeline.
    public init(currentUserID: String, participants: Set<String>, thread: String? = nil) {
        self.currentUserID = currentUserID
        self.participants = participants
        self.thread = thread
    }

    /// Replaces the state with the server's update.
    /// - Parameters:
    ///   - update: The `activity` frame from the server.
    ///   - now: When it arrived, on the roster's clock.
    public mutating func apply(_ update: ActivityUpdate, now: Instant) {
        var incoming: [String: Entry] = [:]
        for wire in update.entries where wire.thread == thread && wire.activity.isActive && isShown(wire.user) {
            let entry = Entry(
                typer: Typer(userID: wire.user, name: wire.name, activity: wire.activity),
                since: wire.since,
                expiresAt: now + .milliseconds(wire.expiresAt - update.serverTime)
            )
            incoming[wire.user, default: entry].merge(entry)
        }
        // Users already shown keep their places; newcomers follow in the order they started.
        var next = entries.compactMap { incoming.removeValue(forKey: $0.typer.userID) }
        next += incoming.values.sorted { ($0.since, $0.typer.userID) < ($1.since, $1.typer.userID) }
        entries = next
        // `total` counts every timeline's entries; those of other timelines that the update lists are not
        // this one's. A large group's unlisted entries may be any timeline's: they count here.
        unlisted = max(0, update.total - update.entries.count)
    }

    /// Replaces the participant set; entries of users who left are dropped.
    public mutating func setParticipants(_ participants: Set<String>) {
        self.participants = participants
        entries.removeAll { !participants.contains($0.typer.userID) }
    }

    /// Records a presence change; an offline user's entry is dropped at once.
    public mutating func setOnline(_ online: Bool, user: String) {
        if online {
            offlineUsers.remove(user)
        } else {
            offlineUsers.insert(user)
            entries.removeAll { $0.typer.userID == user }
        }
    }

    /// The members to show, in stable order, leaving out entries expired at `now`.
    public func typers(at now: Instant) -> [Typer] {
        entries.compactMap { $0.expiresAt > now ? $0.typer : nil }
    }

    /// Drops the entries that expired at `now`.
    /// - Returns: Whether anything was dropped, so the shell knows to republish.
    @discardableResult
    public mutating func removeExpired(now: Instant) -> Bool {
        let count = entries.count
        entries.removeAll { $0.expiresAt <= now }
        return entries.count != count
    }

    /// When the next entry expires.
    public var nextDeadline: Instant? {
        entries.lazy.map(\.expiresAt).min()
    }

    private func isShown(_ user: String) -> Bool {
        user != currentUserID && participants.contains(user) && !offlineUsers.contains(user)
    }
}
