/// Identifies a reply a bot is streaming.
struct StreamKey: Hashable {
    var conversation: String
    var messageId: String
    var bot: String
}

/// The replies bots are streaming on this node: the text so far and when the last part came. A pure
/// value; the hub caps how many one bot keeps open (``ServerConfiguration/maxOpenReplies``) and forgets
/// those silent for too long, so a bot that starts replies and never finishes them cannot grow the node.
struct OpenReplies {
    private struct Reply {
        var text: String
        var lastPartAt: Int64
    }

    private var replies: [StreamKey: Reply] = [:]
    private var countByBot: [String: Int] = [:]

    /// The text so far of a reply, if open.
    subscript(key: StreamKey) -> String? {
        replies[key]?.text
    }

    /// Records a reply's text so far and the time of its last part.
    mutating func set(_ text: String, for key: StreamKey, at time: Int64) {
        if replies.updateValue(Reply(text: text, lastPartAt: time), forKey: key) == nil { countByBot[key.bot, default: 0] += 1 }
    }

    /// How many replies a bot has open.
    func count(of bot: String) -> Int {
        countByBot[bot] ?? 0
    }

    /// Forgets the replies whose last part came before `time`.
    mutating func forgetSilent(before time: Int64) {
        for (key, reply) in replies where reply.lastPartAt < time { remove(key) }
    }

    /// Forgets every reply of a bot (its last socket closed).
    mutating func forget(bot: String) {
        for key in replies.keys where key.bot == bot { remove(key) }
    }

    /// Forgets a reply (it ended).
    mutating func remove(_ key: StreamKey) {
        guard replies.removeValue(forKey: key) != nil else { return }
        countByBot[key.bot]! -= 1
        if countByBot[key.bot] == 0 { countByBot[key.bot] = nil }
    }
}
