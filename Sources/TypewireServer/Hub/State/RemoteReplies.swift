import TypewireCore

/// The replies bots stream on other nodes of a cluster, as this shard learns them from the parts the bus
/// relays: the text so far, the last part's number and whom each answers, for a socket here that subscribes
/// mid-reply (its catch-up) and for a member here who stops one (the stop travels to the bot's node, which
/// holds the reply and decides its end). A pure value, fed by the bus and the clock.
///
/// What a reply's node says decides: this copy only stands in for it on this node. A copy with a hole (a
/// part the bus dropped, or parts sent before this node followed the conversation) gives no catch-up until a
/// part with the whole text so far (`text`) mends it; the bot's node sends one when this node begins
/// following the conversation (`sliceRequest`).
///
/// Bounded: a reply leaves with its final part, when its node is gone, or once silent for the reply timeout
/// (its node ends it then, and says so; a lost end is forgotten all the same); at most ``maxPerConversation``
/// replies per conversation are kept.
struct RemoteReplies {
    /// One reply under way on another node.
    struct Reply: Equatable {
        var node: String
        var text: String
        var seq: Int64
        var asker: String?
        var thread: String?
        var lastPartAt: Int64
        /// A part is missing from `text`: no catch-up from it.
        var hasHole: Bool
    }

    /// The most replies kept per conversation (ten bots' worth of open replies).
    static let maxPerConversation = 100

    private var byConversation: [String: [StreamKey: Reply]] = [:]

    /// A part relayed from `node` at `time`. The first part of a reply first forgets the conversation's
    /// replies silent for `timeout` (their nodes ended them, or are gone), so that only replies under way
    /// count against ``maxPerConversation``; a part of a known reply costs no scan.
    mutating func apply(_ part: ServerFrame.StreamDelta, from node: String, at time: Int64, timeout: Int64) {
        let key = StreamKey(conversation: part.conversation, messageId: part.messageId, bot: part.user)
        if part.final {
            remove(key)
            return
        }
        var replies = byConversation[part.conversation, default: [:]]
        let seq = part.seq ?? 0
        if var reply = replies[key] {
            if let text = part.text {
                guard seq >= reply.seq else { return }
                reply.text = text
                reply.hasHole = false
            } else {
                guard seq > reply.seq else { return }
                reply.text += part.delta
                if seq != reply.seq + 1 { reply.hasHole = true }
            }
            reply.seq = seq
            reply.lastPartAt = time
            reply.asker = part.asker ?? reply.asker
            replies[key] = reply
        } else {
            replies = replies.filter { time - $0.value.lastPartAt < timeout }
            guard replies.count < Self.maxPerConversation else {
                byConversation[part.conversation] = replies.isEmpty ? nil : replies
                return
            }
            replies[key] = Reply(
                node: node, text: part.text ?? part.delta, seq: seq, asker: part.asker, thread: part.thread, lastPartAt: time,
                hasHole: part.text == nil && seq != 1)
        }
        byConversation[part.conversation] = replies
    }

    /// The replies of a conversation heard from within `timeout` of `time`, whole so far, as catch-up frames.
    func catchUp(in conversation: String, at time: Int64, timeout: Int64) -> [ServerFrame.StreamDelta] {
        (byConversation[conversation] ?? [:])
            .filter { !$0.value.hasHole && time - $0.value.lastPartAt < timeout }
            .sorted { ($0.key.bot, $0.key.messageId) < ($1.key.bot, $1.key.messageId) }
            .map { key, reply in
                ServerFrame.StreamDelta(
                    conversation: key.conversation, messageId: key.messageId, user: key.bot, delta: "", final: false, thread: reply.thread,
                    seq: reply.seq, asker: reply.asker, text: reply.text)
            }
    }

    /// The replies `messageId` of a conversation under way on other nodes (heard from within `timeout`).
    func replies(_ messageId: String, in conversation: String, at time: Int64, timeout: Int64) -> [(key: StreamKey, reply: Reply)] {
        (byConversation[conversation] ?? [:])
            .filter { $0.key.messageId == messageId && time - $0.value.lastPartAt < timeout }
            .map { ($0.key, $0.value) }
    }

    /// Forgets the replies of a node that stopped or died.
    mutating func forget(node: String) {
        for (conversation, replies) in byConversation {
            let left = replies.filter { $0.value.node != node }
            byConversation[conversation] = left.isEmpty ? nil : left
        }
    }

    private mutating func remove(_ key: StreamKey) {
        byConversation[key.conversation]?[key] = nil
        if byConversation[key.conversation]?.isEmpty == true { byConversation[key.conversation] = nil }
    }
}
