import NIOConcurrencyHelpers

/// Identifies a reply a bot is streaming.
struct StreamKey: Hashable {
    var conversation: String
    var messageId: String
    var bot: String
}

/// The replies bots are streaming on this node: the text so far and when the last part came. A pure
/// value; the hub caps how many one bot keeps open (``ServerConfiguration/Messages/maxOpenReplies``) and forgets
/// those silent for too long, so a bot that starts replies and never finishes them cannot grow the node.
/// Every operation touches one bot's replies only (a handful), never all of the node's.
struct OpenReplies {
    private struct Reply {
        var text: String
        var lastPartAt: Int64
    }

    private var replies: [StreamKey: Reply] = [:]
    private var keysByBot: [String: Set<StreamKey>] = [:]

    /// The text so far of a reply, if open.
    subscript(key: StreamKey) -> String? {
        replies[key]?.text
    }

    /// Records a reply's text so far and the time of its last part.
    mutating func set(_ text: String, for key: StreamKey, at time: Int64) {
        if replies.updateValue(Reply(text: text, lastPartAt: time), forKey: key) == nil { keysByBot[key.bot, default: []].insert(key) }
    }

    /// How many replies a bot has open.
    func count(of bot: String) -> Int {
        keysByBot[bot]?.count ?? 0
    }

    /// Forgets a bot's replies whose last part came before `time`.
    mutating func forgetSilent(of bot: String, before time: Int64) {
        for key in keysByBot[bot] ?? [] where replies[key].map({ $0.lastPartAt < time }) ?? true { remove(key) }
    }

    /// Forgets every reply of a bot (its last socket closed).
    mutating func forget(bot: String) {
        for key in keysByBot[bot] ?? [] { remove(key) }
    }

    /// Forgets a reply (it ended).
    mutating func remove(_ key: StreamKey) {
        guard replies.removeValue(forKey: key) != nil else { return }
        keysByBot[key.bot]?.remove(key)
        if keysByBot[key.bot]?.isEmpty == true { keysByBot[key.bot] = nil }
    }
}

/// The node's ``OpenReplies``, shared by the hub's shards: a bot's replies in conversations of different
/// shards count against one cap. Touched by `stream` frames (and a bot's `send` of a cut-off reply), not by
/// other frames.
final class SharedOpenReplies: Sendable {
    private let replies = NIOLockedValueBox(OpenReplies())

    /// Runs `body` on the replies, alone.
    func withLockedValue<T>(_ body: (inout OpenReplies) -> T) -> T {
        replies.withLockedValue { body(&$0) }
    }
}
