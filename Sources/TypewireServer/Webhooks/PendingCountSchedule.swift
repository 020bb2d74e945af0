/// When the dispatcher counts the outbox for `typewire_webhook_pending`: every poll interval, and less often
/// while a count takes long, so that counting takes about 1 % of the store's time, but never less often than
/// every ``maxIntervals`` poll intervals.
///
/// The count is a `COUNT(*)` over the outbox, which grows while a receiver is down (up to
/// `maxPending` events). A count of a large backlog takes long, and the dispatcher claims nothing while it
/// runs: after a count that took `d`, the next waits `d / share`, up to ``maxIntervals`` intervals. The bound
/// keeps the gauge at most that stale: one slow count on a loaded machine (a query queued behind others'
/// writes) must not freeze it.
struct PendingCountSchedule: Sendable {
    /// The shortest time between two counts, in milliseconds (the dispatcher's poll interval).
    let interval: Int64
    /// The most of the store's time the counts take: 1 %.
    static let share = 0.01
    /// The longest time between two counts, in poll intervals.
    static let maxIntervals: Int64 = 10
    /// When the next count is due (milliseconds); nil before the first, which is due at once.
    private(set) var nextAt: Int64?

    init(intervalMilliseconds: Int64) {
        precondition(intervalMilliseconds > 0, "a count interval is positive")
        self.interval = intervalMilliseconds
    }

    /// Whether a count is due at `now`.
    func isDue(at now: Int64) -> Bool {
        nextAt.map { now >= $0 } ?? true
    }

    /// Records a count that started at `started` and took `took` milliseconds: the next one is a poll
    /// interval after it started, or the count's own time divided by ``share`` after that, whichever is
    /// later, and at most ``maxIntervals`` intervals after it started.
    mutating func counted(at started: Int64, took: Int64) {
        let took = max(0, took)
        let spaced = Double(took) / Self.share
        let longest = interval.multipliedReportingOverflow(by: Self.maxIntervals).partialValue
        let wait = spaced >= Double(longest) ? longest : max(interval, took + Int64(spaced))
        nextAt = started.addingReportingOverflow(min(wait, longest)).partialValue
    }
}
