/// When the dispatcher counts the outbox for `typewire_webhook_pending`: every poll interval, and less often
/// while a count takes long, so that counting takes at most 1 % of the store's time.
///
/// The count is a `COUNT(*)` over the outbox, which grows while a receiver is down (up to a day's events).
/// A count of a large backlog takes long, and the dispatcher claims nothing while it runs: after a count that
/// took `d`, the next waits at least `d / share`.
struct PendingCountSchedule: Sendable {
    /// The shortest time between two counts, in milliseconds (the dispatcher's poll interval).
    let interval: Int64
    /// The most of the store's time the counts take: 1 %.
    static let share = 0.01
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

    /// Records a count that started at `started` and ended at `ended`: the next one is a poll interval after it
    /// started, or the count's own time divided by ``share`` after it ended, whichever is later.
    mutating func counted(started: Int64, ended: Int64) {
        let took = max(0, ended - started)
        nextAt = max(started + interval, ended + Int64(Double(took) / Self.share))
    }
}
