/// Paces the activity fan-out of large groups: a conversation with at least `groupSize` subscribers gets
/// at most one `activity` update per interval: `interval`, or longer for a group so large that it would
/// otherwise take more than `deliveriesPerSecond` frames a second (5 000 subscribers at 10 000 a second:
/// one update per 500 ms). The first change after a quiet interval goes out at once; changes within the
/// interval are coalesced into one update at its end, carrying the latest state. Small conversations are
/// never paced. A pure value fed the server's time in milliseconds.
struct ActivityPacer {
    /// What to do with a change of a conversation's activity.
    enum Decision: Equatable {
        /// Fan the update out now.
        case now
        /// Fan it out at this time (server milliseconds): call ``wake(_:now:)`` then.
        case at(Int64)
        /// An update is already scheduled; it will carry this change.
        case scheduled
    }

    /// The shortest time between two updates of a large group, in milliseconds.
    let interval: Int64
    /// The number of subscribers from which a conversation is paced.
    let groupSize: Int
    /// The most `activity` frames one group's updates may take a second, over all its subscribers.
    let deliveriesPerSecond: Int
    private var lastSent: [String: Int64] = [:]
    /// The conversations with an update scheduled, and when it is due.
    private var scheduled: [String: Int64] = [:]

    init(interval: Int64, groupSize: Int, deliveriesPerSecond: Int) {
        self.interval = interval
        self.groupSize = groupSize
        self.deliveriesPerSecond = deliveriesPerSecond
    }

    /// The time between two updates of a group with this many subscribers, in milliseconds.
    func interval(subscribers: Int) -> Int64 {
        max(interval, Int64(subscribers) * 1_000 / Int64(max(1, deliveriesPerSecond)))
    }

    /// Decides when a conversation's changed activity goes out.
    mutating func change(in conversation: String, subscribers: Int, now: Int64) -> Decision {
        guard subscribers >= groupSize else {
            lastSent[conversation] = nil
            return .now
        }
        if scheduled[conversation] != nil { return .scheduled }
        let interval = interval(subscribers: subscribers)
        if let last = lastSent[conversation], now - last < interval {
            scheduled[conversation] = last + interval
            return .at(last + interval)
        }
        lastSent[conversation] = now
        return .now
    }

    /// What a timer finds when it wakes for a scheduled update.
    enum Wake: Equatable {
        /// The update is due: fan it out now.
        case due
        /// An update is scheduled for later (this timer was for one taken early): wake again then.
        case notYet(Int64)
        /// Nothing is scheduled.
        case nothing
    }

    /// Takes a scheduled update whose time has come. A timer armed for an update that was then taken
    /// early must not send the next one before its time.
    mutating func wake(_ conversation: String, now: Int64) -> Wake {
        guard let due = scheduled[conversation] else { return .nothing }
        guard due <= now else { return .notYet(due) }
        scheduled[conversation] = nil
        lastSent[conversation] = now
        return .due
    }

    /// Takes a scheduled update before its time, because another frame to the conversation must not
    /// overtake it (a message after its sender's stop).
    /// - Returns: Whether one was scheduled; the caller fans it out now.
    mutating func takeEarly(_ conversation: String, now: Int64) -> Bool {
        guard scheduled.removeValue(forKey: conversation) != nil else { return false }
        lastSent[conversation] = now
        return true
    }

    /// Forgets a conversation nobody follows any more.
    mutating func forget(_ conversation: String) {
        lastSent[conversation] = nil
        scheduled[conversation] = nil
    }
}
