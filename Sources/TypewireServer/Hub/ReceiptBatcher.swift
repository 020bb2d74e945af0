import TypewireCore

/// Coalesces a conversation's receipts, so that a group whose members all read at once costs one `receipts`
/// fan-out a second, not one per reader: the first read of a quiet conversation goes out at once; reads
/// within ``interval`` of the last fan-out wait, and go out together at its end, one frame per timeline with
/// each member's latest mark. A pure value fed the server's time in milliseconds (one per ``HubShard``).
struct ReceiptBatcher {
    /// What to do with a read.
    enum Decision: Equatable {
        /// Fan the conversation's receipts out now (``take(in:)``).
        case now
        /// Fan them out at this time (server milliseconds): call ``wake(_:now:)`` then.
        case at(Int64)
        /// A fan-out is scheduled already; it will carry this read.
        case scheduled
    }

    /// The shortest time between two fan-outs of a conversation's receipts, in milliseconds.
    let interval: Int64
    /// How many conversations' last fan-out times are kept before the stale ones are dropped.
    static let keptTimes = 10_000

    /// The marks waiting, by conversation, then thread ('' the main timeline), then user.
    private var waiting: [String: [String: [String: ReadMark]]] = [:]
    private var lastSent: [String: Int64] = [:]
    private var scheduled: [String: Int64] = [:]

    /// How many conversations' last fan-out times are kept.
    var timesKept: Int { lastSent.count }

    init(interval: Int64) {
        self.interval = interval
    }

    /// A member's watermark moved in a timeline (`thread` nil: the main one) of a conversation.
    mutating func add(_ mark: ReadMark, thread: String?, in conversation: String, now: Int64) -> Decision {
        waiting[conversation, default: [:]][thread ?? "", default: [:]][mark.user] = mark
        if scheduled[conversation] != nil { return .scheduled }
        if let last = lastSent[conversation], now - last < interval {
            scheduled[conversation] = last + interval
            return .at(last + interval)
        }
        if lastSent.count >= Self.keptTimes { lastSent = lastSent.filter { now - $0.value < interval } }
        lastSent[conversation] = now
        return .now
    }

    /// What a timer finds when it wakes for a conversation's scheduled fan-out at `now`: the frames to fan out
    /// (empty if nothing is due).
    mutating func wake(_ conversation: String, now: Int64) -> [ServerFrame.Receipts] {
        guard let due = scheduled[conversation], now >= due else { return [] }
        scheduled[conversation] = nil
        lastSent[conversation] = now
        return take(in: conversation)
    }

    /// Takes a conversation's waiting marks, one frame per timeline (the main one first, then threads by id),
    /// each member's marks by user id.
    mutating func take(in conversation: String) -> [ServerFrame.Receipts] {
        guard let timelines = waiting.removeValue(forKey: conversation) else { return [] }
        return timelines.sorted { $0.key < $1.key }.map { thread, marks in
            ServerFrame.Receipts(
                conversation: conversation, thread: thread.isEmpty ? nil : thread, reads: marks.values.sorted { $0.user < $1.user })
        }
    }
}
