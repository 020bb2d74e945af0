import TypewireCore

/// Every bot's reply in one conversation, each followed by a ``BotReplyTracker`` of its own: two bots
/// answering at once each go from thinking to their streamed reply to idle without touching the other's.
/// A value, fed the typers, the streamed parts and the time; tested without a clock.
struct BotReplies {
    private var trackers: [String: BotReplyTracker] = [:]
    /// The bots with a reply under way, in the order their replies began.
    private(set) var bots: [String] = []

    /// The earliest time a reply is given up unless news comes.
    var nextDeadline: ContinuousClock.Instant? { trackers.values.compactMap(\.nextDeadline).min() }

    /// The typers changed: a bot that thinks or runs a tool has a reply under way; one that left the
    /// typers before writing has none.
    mutating func typersChanged(_ typers: [Typer], now: ContinuousClock.Instant) {
        var activities: [String: MemberActivity] = [:]
        for typer in typers where activities[typer.userID] == nil { activities[typer.userID] = typer.activity }
        for typer in typers where BotReplyTracker.isWorking(typer.activity) { track(typer.userID) }
        for bot in bots { trackers[bot]?.activityChanged(activities[bot], now: now) }
        forgetIdle()
    }

    /// A part of a bot's reply arrived.
    mutating func chunk(from bot: String, isFinal: Bool, now: ContinuousClock.Instant) {
        track(bot)
        trackers[bot]?.chunk(isFinal: isFinal, now: now)
        forgetIdle()
    }

    /// Time passed. - Returns: The bots whose replies were given up (they went quiet).
    mutating func tick(now: ContinuousClock.Instant) -> [String] {
        let gaveUp = bots.filter { trackers[$0]?.tick(now: now) == true }
        forgetIdle()
        return gaveUp
    }

    /// Each reply under way, in the order they began.
    /// - Parameters:
    ///   - name: A bot's display name, if known.
    ///   - streamingText: The text a bot's reply streams now, if any.
    func phases(name: (String) -> String?, streamingText: (String) -> String?) -> [BotReplyPhase] {
        bots.compactMap { bot in
            guard let tracker = trackers[bot] else { return nil }
            return BotReplyPhase(bot: bot, name: name(bot), phase: tracker.phase(streamingText: streamingText(bot)))
        }
    }

    private mutating func track(_ bot: String) {
        guard trackers[bot] == nil else { return }
        trackers[bot] = BotReplyTracker()
        bots.append(bot)
    }

    private mutating func forgetIdle() {
        bots.removeAll { trackers[$0]?.isIdle ?? true }
        trackers = trackers.filter { !$0.value.isIdle }
    }
}
