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

    /// A conversation's receipts to fan out.
    struct Batch: Equatable {
        /// One frame per timeline (the main one first, then threads by id), each member's latest marks by user
        /// id; a timeline whose readers are counted, not named, has a frame with no marks.
        var frames: [ServerFrame.Receipts]
        /// Whether a reader of this node is among them: the other nodes of a cluster are told.
        var isLocal: Bool
    }

    /// The shortest time between two fan-outs of a conversation's receipts, in milliseconds.
    let interval: Int64
    /// How many conversations' last fan-out times are kept before the stale ones are dropped.
    static let keptTimes = 10_000

    private struct Waiting {
        /// The marks, by thread ('' the main timeline), then user.
        var timelines: [String: Marks] = [:]
        var isLocal = false
    }

    /// A timeline's waiting marks, each member's latest.
    private struct Marks {
        var reads: [String: ReadMark] = [:]
        var delivered: [String: ReadMark] = [:]
    }

    private var waiting: [String: Waiting] = [:]
    private var lastSent: [String: Int64] = [:]
    private var scheduled: [String: Int64] = [:]

    /// How many conversations' last fan-out times are kept.
    var timesKept: Int { lastSent.count }

    init(interval: Int64) {
        self.interval = interval
    }

    /// A timeline's (`thread` nil: the main one) receipts changed: a member's mark moved to `mark` (their
    /// delivered mark, if `isDelivery`), or, with nil, its readers are counted (a large group) and the count
    /// changed; `isLocal`, by a reader of this node.
    mutating func add(
        _ mark: ReadMark?, isDelivery: Bool = false, thread: String?, in conversation: String, isLocal: Bool = true, now: Int64
    ) -> Decision {
        var entry = waiting[conversation, default: Waiting()]
        var marks = entry.timelines[thread ?? "", default: Marks()]
        if let mark {
            if isDelivery { marks.delivered[mark.user] = mark } else { marks.reads[mark.user] = mark }
        }
        entry.timelines[thread ?? ""] = marks
        entry.isLocal = entry.isLocal || isLocal
        waiting[conversation] = entry
        if scheduled[conversation] != nil { return .scheduled }
        if let last = lastSent[conversation], now - last < interval {
            scheduled[conversation] = last + interval
            return .at(last + interval)
        }
        if lastSent.count >= Self.keptTimes { lastSent = lastSent.filter { now - $0.value < interval } }
        lastSent[conversation] = now
        return .now
    }

    /// What a timer finds when it wakes for a conversation's scheduled fan-out at `now`: the batch to fan out
    /// (nil if nothing is due).
    mutating func wake(_ conversation: String, now: Int64) -> Batch? {
        guard let due = scheduled[conversation], now >= due else { return nil }
        scheduled[conversation] = nil
        lastSent[conversation] = now
        return take(in: conversation)
    }

    /// Takes a conversation's waiting receipts.
    mutating func take(in conversation: String) -> Batch? {
        guard let entry = waiting.removeValue(forKey: conversation) else { return nil }
        let frames = entry.timelines.sorted { $0.key < $1.key }.map { thread, marks in
            ServerFrame.Receipts(
                conversation: conversation, thread: thread.isEmpty ? nil : thread, reads: marks.reads.values.sorted { $0.user < $1.user },
                delivered: marks.delivered.isEmpty ? nil : marks.delivered.values.sorted { $0.user < $1.user })
        }
        return Batch(frames: frames, isLocal: entry.isLocal)
    }
}
