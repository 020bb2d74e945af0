/// Which sealed cluster payloads a node accepts by their time and counter: each is accepted once, and only
/// while it is fresh. A pure value; the bus that holds it owns the clock and the lock.
///
/// Every node numbers what it seals (1, 2, 3, …) and stamps it with its clock (``ClusterPayload``). A payload
/// is refused if its time is more than ``window`` from the receiver's clock (old ones replayed later, or nodes
/// whose clocks disagree by more than that), or if its counter was accepted before or is more than ``width``
/// behind the highest accepted from that node (IPsec's anti-replay window, RFC 4303 §3.4.3: the bus may
/// deliver a node's messages on different subjects slightly out of order).
///
/// Only payloads that opened under the cluster's key reach it, so only real nodes are kept; a node not heard
/// from for two windows is forgotten (anything it sent before is stale by then).
struct ClusterReplayWindow: Sendable {
    /// What the window says of a payload.
    enum Verdict: Equatable {
        case accepted
        /// Its time is more than ``window`` from now.
        case stale
        /// Its counter was accepted before, or is too far behind.
        case replayed
    }

    /// How far a payload's time may be from the receiver's clock, in milliseconds.
    let window: Int64
    /// How many counters behind the highest are still told apart.
    static let width = 1_024

    private struct Sender {
        var highest: UInt64
        /// Bit `i` of the words: counter `highest - i` was accepted.
        var seen: [UInt64]
        var lastHeard: Int64
    }

    private var senders: [String: Sender] = [:]
    /// When senders not heard from for two windows were last forgotten.
    private var lastSwept: Int64 = .min

    /// A window that accepts payloads at most `window` milliseconds from the receiver's clock.
    init(window: Int64) {
        self.window = window
    }

    /// Decides on one payload of `node`, and records it if it is accepted.
    mutating func admit(node: String, counter: UInt64, sentAt: Int64, now: Int64) -> Verdict {
        guard case (let age, false) = now.subtractingReportingOverflow(sentAt), age != .min, abs(age) <= window else { return .stale }
        sweep(now: now)
        guard var sender = senders[node] else {
            var seen = [UInt64](repeating: 0, count: Self.width / 64)
            seen[0] = 1
            senders[node] = Sender(highest: counter, seen: seen, lastHeard: now)
            return .accepted
        }
        defer { senders[node] = sender }
        sender.lastHeard = now
        if counter > sender.highest {
            Self.shift(&sender.seen, by: counter - sender.highest)
            sender.seen[0] |= 1
            sender.highest = counter
            return .accepted
        }
        let behind = sender.highest - counter
        guard behind < UInt64(Self.width) else { return .replayed }
        let (word, bit) = (Int(behind / 64), behind % 64)
        guard sender.seen[word] & (1 << bit) == 0 else { return .replayed }
        sender.seen[word] |= 1 << bit
        return .accepted
    }

    /// How many senders are kept (for tests).
    var senderCount: Int { senders.count }

    /// Moves every bit `distance` places up (to older counters); what passes the width falls off.
    private static func shift(_ words: inout [UInt64], by distance: UInt64) {
        guard distance < UInt64(width) else { return words.indices.forEach { words[$0] = 0 } }
        let (wordShift, bitShift) = (Int(distance / 64), distance % 64)
        for index in words.indices.reversed() {
            let source = index - wordShift
            var value: UInt64 = source >= 0 ? words[source] << bitShift : 0
            if bitShift > 0, source - 1 >= 0 { value |= words[source - 1] >> (64 - bitShift) }
            words[index] = value
        }
    }

    private mutating func sweep(now: Int64) {
        guard now.subtractingReportingOverflow(lastSwept).overflow || now - lastSwept > window else { return }
        lastSwept = now
        senders = senders.filter { now - $0.value.lastHeard <= 2 * window }
    }
}
