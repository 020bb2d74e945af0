import TypewireCore

/// The messages a `subscribed` snapshot's unread count may miss, for one conversation's main timeline.
///
/// The server counts unread messages when it reads a subscription, and the client replaces its count with
/// that one. A message stored after that read and delivered before the snapshot arrives (the socket already
/// followed the conversation: a second screen's handle, or an earlier subscribe of the same screen) is in
/// neither count, and is never delivered again. So each subscribe notes the arrivals after it, and its answer
/// gives back those its snapshot's recent messages do not hold: the client counts them again. Answers come
/// in the order of the subscribes; one the server never answered (dropped past the frame budget) only makes
/// a later answer look further back, among messages its recent ones hold. A pure value.
struct UncountedArrivals {
    /// For each subscribe not answered yet, oldest first: the number of the last arrival when it went out.
    private var unanswered: [Int] = []
    /// The new messages that arrived since the oldest unanswered subscribe, numbered.
    private var arrivals: [(number: Int, message: ChatMessage)] = []
    private var count = 0

    /// Arrivals kept at most: a snapshot carries the newest 50 messages, so older arrivals are in it anyway.
    static let capacity = 100

    /// Whether nothing is noted (no subscribe waits for its answer).
    var isEmpty: Bool { unanswered.isEmpty }

    /// A subscribe went out.
    mutating func subscribeSent() {
        unanswered.append(count)
    }

    /// A new message of the main timeline arrived (not an edit, not a snapshot's).
    mutating func arrived(_ message: ChatMessage) {
        guard !unanswered.isEmpty else { return }
        count += 1
        arrivals.append((count, message))
        if arrivals.count > Self.capacity { arrivals.removeFirst(arrivals.count - Self.capacity) }
    }

    /// The oldest unanswered subscribe was answered: with a snapshot holding the messages `recent`, or
    /// refused (`recent` empty, and the result unused).
    /// - Returns: The messages that arrived since that subscribe went out and are not in `recent`, in order.
    mutating func answered(holding recent: Set<String>) -> [ChatMessage] {
        guard !unanswered.isEmpty else { return [] }
        let since = unanswered.removeFirst()
        let missed = arrivals.filter { $0.number > since && !recent.contains($0.message.id) }.map(\.message)
        if let oldest = unanswered.first {
            arrivals.removeAll { $0.number <= oldest }
        } else {
            arrivals.removeAll()
        }
        return missed
    }
}
