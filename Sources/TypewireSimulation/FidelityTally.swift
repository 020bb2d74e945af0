import TypewireCore

/// A histogram of durations with 1 ms buckets up to a limit; mergeable, so runs split over cores add up
/// to the same figures as one run.
struct DurationHistogram: Sendable {
    private(set) var counts: [Int]
    private(set) var total = 0

    init(limit: Int64 = 30_000) {
        counts = Array(repeating: 0, count: Int(limit) + 1)
    }

    mutating func record(_ milliseconds: Int64) {
        counts[Int(min(max(milliseconds, 0), Int64(counts.count - 1)))] += 1
        total += 1
    }

    mutating func merge(_ other: DurationHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        total += other.total
    }

    /// The smallest value with at least `quantile` of the records at or below it.
    func value(at quantile: Double) -> Int64 {
        guard total > 0 else { return 0 }
        let rank = max(1, Int((quantile * Double(total)).rounded(.up)))
        var seen = 0
        for (value, count) in counts.enumerated() {
            seen += count
            if seen >= rank { return Int64(value) }
        }
        return Int64(counts.count - 1)
    }
}

/// The fidelity of one policy, summed over sessions: how the receiver's indicator compared to the truth.
struct FidelityTally: Sendable {
    var sessionTime: Int64 = 0
    var mismatchTime: Int64 = 0
    var typingTime: Int64 = 0
    var framesSent = 0
    var typingSpells = 0
    var missedSpells = 0
    var timeToShow = DurationHistogram()
    var timeToHide = DurationHistogram()
    var longestStale: Int64 = 0
    var flickers = 0

    mutating func merge(_ other: FidelityTally) {
        sessionTime += other.sessionTime
        mismatchTime += other.mismatchTime
        typingTime += other.typingTime
        framesSent += other.framesSent
        typingSpells += other.typingSpells
        missedSpells += other.missedSpells
        timeToShow.merge(other.timeToShow)
        timeToHide.merge(other.timeToHide)
        longestStale = max(longestStale, other.longestStale)
        flickers += other.flickers
    }

    /// Compares one session's indicator with the truth.
    /// - Parameters:
    ///   - truth: When someone was really typing, sorted and disjoint.
    ///   - shown: When the receiver showed the indicator, sorted and disjoint.
    ///   - flickerWindow: A gap in the indicator at most this long is a flicker when one spell of typing
    ///     covers the gap and the showing before it. A hide that ends a showing begun before the spell is the
    ///     late news of the previous spell's real stop, not a flicker.
    mutating func record(truth: [Interval], shown: [Interval], framesSent: Int, duration: Int64, flickerWindow: Int64) {
        sessionTime += duration
        self.framesSent += framesSent
        let typed = truth.reduce(0) { $0 + $1.length }
        let showing = shown.reduce(0) { $0 + $1.length }
        typingTime += typed
        mismatchTime += typed + showing - 2 * Self.overlap(truth, shown)

        var next = 0
        for (index, spell) in truth.enumerated() {
            typingSpells += 1
            while next < shown.count && shown[next].end <= spell.start { next += 1 }
            if next < shown.count && shown[next].start < spell.end {
                timeToShow.record(max(0, shown[next].start - spell.start))
            } else {
                timeToShow.record(spell.length)
                missedSpells += 1
            }
            let nextStart = index + 1 < truth.count ? truth[index + 1].start : duration
            if let showing = Self.interval(in: shown, containing: spell.end, from: next) {
                timeToHide.record(min(showing.end, nextStart) - spell.end)
            } else {
                timeToHide.record(0)
            }
        }

        var spell = 0
        for showing in shown {
            var cursor = showing.start
            while spell < truth.count && truth[spell].end <= cursor { spell += 1 }
            var probe = spell
            while cursor < showing.end {
                if probe < truth.count && truth[probe].start <= cursor {
                    cursor = truth[probe].end
                    probe += 1
                    continue
                }
                let staleEnd = probe < truth.count ? min(truth[probe].start, showing.end) : showing.end
                longestStale = max(longestStale, staleEnd - cursor)
                cursor = staleEnd
            }
        }

        spell = 0
        for (earlier, later) in zip(shown, shown.dropFirst()) where later.start - earlier.end <= flickerWindow {
            while spell < truth.count && truth[spell].end < later.start { spell += 1 }
            if spell < truth.count && truth[spell].start <= earlier.start && truth[spell].end >= later.start {
                flickers += 1
            }
        }
    }

    private static func overlap(_ lhs: [Interval], _ rhs: [Interval]) -> Int64 {
        var total: Int64 = 0
        var i = 0
        var j = 0
        while i < lhs.count && j < rhs.count {
            let start = max(lhs[i].start, rhs[j].start)
            let end = min(lhs[i].end, rhs[j].end)
            if end > start { total += end - start }
            if lhs[i].end < rhs[j].end { i += 1 } else { j += 1 }
        }
        return total
    }

    private static func interval(in intervals: [Interval], containing time: Int64, from start: Int) -> Interval? {
        var index = start
        while index < intervals.count && intervals[index].end <= time { index += 1 }
        guard index < intervals.count, intervals[index].start <= time else { return nil }
        return intervals[index]
    }
}

/// When someone is really typing: from a keystroke until the idle timeout passes without another, or
/// until the message is sent, the input cleared or the conversation left. A crash ends nothing by itself:
/// the person's last keystroke still counts for the idle timeout.
func truthIntervals(of script: [TypistEvent], idleTimeout: Int64, duration: Int64) -> [Interval] {
    var spells: [Interval] = []
    var start: Int64?
    var lastKeystroke: Int64 = 0
    for event in script {
        if let begun = start, event.time >= lastKeystroke + idleTimeout {
            spells.append(Interval(start: begun, end: lastKeystroke + idleTimeout))
            start = nil
        }
        switch event.action {
        case .keystroke:
            if start == nil { start = event.time }
            lastKeystroke = event.time
        case .send, .clear, .leave:
            if let begun = start {
                spells.append(Interval(start: begun, end: event.time))
                start = nil
            }
        case .crash:
            break
        }
    }
    if let begun = start { spells.append(Interval(start: begun, end: min(lastKeystroke + idleTimeout, duration))) }
    return spells.filter { $0.length > 0 }
}
