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
/// The main timeline's roster also counts, for each thread, the members active in it by the same rules
/// (``replying(at:)``): what a parent message shows ("2 people are replying…").
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
    /// The main timeline's roster only: by thread, when each member active in it expires.
    private var threadEntries: [String: [String: Instant]] = [:]

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
        threadEntries = [:]
        for wire in update.entries where wire.activity.isActive && isShown(wire.user) {
            let expiresAt = now + .milliseconds(wire.expiresAt - update.serverTime)
            guard wire.thread == thread else {
                if thread == nil, let other = wire.thread {
                    threadEntries[other, default: [:]][wire.user] = max(threadEntries[other]?[wire.user] ?? expiresAt, expiresAt)
                }
                continue
            }
            let entry = Entry(
                typer: Typer(userID: wire.user, name: wire.name, activity: wire.activity),
                since: wire.since,
                expiresAt: expiresAt
            )
            incoming[wire.user, default: entry].merge(entry)
        }
        // Users already shown keep their places; newcomers follow in the order they started.
        var next = entries.compactMap { incoming.removeValue(forKey: $0.typer.userID) }
        next += incoming.values.sorted { ($0.since, $0.typer.userID) < ($1.since, $1.typer.userID) }
        entries = next
        // `total` counts the users active in any timeline; those the update lists are counted already (here
        // or in another timeline). A large group's unlisted users may be any timeline's: they count here.
        unlisted = max(0, update.total - ActivityUpdate.userCount(of: update.entries))
    }

    /// Replaces the participant set; entries of users who left are dropped.
    public mutating func setParticipants(_ participants: Set<String>) {
        self.participants = participants
        entries.removeAll { !participants.contains($0.typer.userID) }
        removeThreadEntries { user, _ in !participants.contains(user) }
    }

    /// Records a presence change; an offline user's entry is dropped at once.
    public mutating func setOnline(_ online: Bool, user: String) {
        if online {
            offlineUsers.remove(user)
        } else {
            offlineUsers.insert(user)
            entries.removeAll { $0.typer.userID == user }
            removeThreadEntries { other, _ in other == user }
        }
    }

    /// The members to show, in stable order, leaving out entries expired at `now`.
    public func typers(at now: Instant) -> [Typer] {
        entries.compactMap { $0.expiresAt > now ? $0.typer : nil }
    }

    /// How many members are active in each thread of the conversation, by its parent message's id,
    /// leaving out entries expired at `now` (threads with none are absent). Only the main timeline's
    /// roster counts them; a thread's roster answers empty.
    public func replying(at now: Instant) -> [String: Int] {
        threadEntries.reduce(into: [:]) { counts, thread in
            let count = thread.value.values.reduce(0) { $0 + ($1 > now ? 1 : 0) }
            if count > 0 { counts[thread.key] = count }
        }
    }

    /// Drops the entries that expired at `now`.
    /// - Returns: Whether anything was dropped, so the shell knows to republish.
    @discardableResult
    public mutating func removeExpired(now: Instant) -> Bool {
        let count = entries.count
        entries.removeAll { $0.expiresAt <= now }
        return removeThreadEntries { _, expiresAt in expiresAt <= now } || entries.count != count
    }

    /// When the next entry expires (of this timeline, or of a thread the main timeline counts).
    public var nextDeadline: Instant? {
        let threads = threadEntries.values.lazy.flatMap(\.values).min()
        return [entries.lazy.map(\.expiresAt).min(), threads].compactMap { $0 }.min()
    }

    /// Drops the thread entries `shouldRemove` picks (by user and expiry). - Returns: Whether any went.
    @discardableResult
    private mutating func removeThreadEntries(where shouldRemove: (String, Instant) -> Bool) -> Bool {
        guard !threadEntries.isEmpty else { return false }
        var removed = false
        for (thread, members) in threadEntries {
            let kept = members.filter { !shouldRemove($0.key, $0.value) }
            guard kept.count != members.count else { continue }
            removed = true
            threadEntries[thread] = kept.isEmpty ? nil : kept
        }
        return removed
    }

    private func isShown(_ user: String) -> Bool {
        user != currentUserID && participants.contains(user) && !offlineUsers.contains(user)
    }
}
