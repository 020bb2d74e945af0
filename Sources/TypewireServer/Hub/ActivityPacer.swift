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
        /// Fan it out at this time (server milliseconds): call ``takeScheduled(_:now:)`` then.
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
    private var scheduled: Set<String> = []

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
        if scheduled.contains(conversation) { return .scheduled }
        let interval = interval(subscribers: subscribers)
        if let last = lastSent[conversation], now - last < interval {
            scheduled.insert(conversation)
            return .at(last + interval)
        }
        lastSent[conversation] = now
        return .now
    }

    /// Takes a scheduled update: when its time comes, or earlier, when another frame to the conversation
    /// must not overtake it (a message after its sender's stop).
    /// - Returns: Whether one was scheduled (true once per ``Decision/at(_:)``); the caller fans it out now.
    mutating func takeScheduled(_ conversation: String, now: Int64) -> Bool {
        guard scheduled.remove(conversation) != nil else { return false }
        lastSent[conversation] = now
        return true
    }

    /// Forgets a conversation nobody follows any more.
    mutating func forget(_ conversation: String) {
        lastSent[conversation] = nil
        scheduled.remove(conversation)
    }
}
