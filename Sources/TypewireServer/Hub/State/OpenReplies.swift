import NIOConcurrencyHelpers
import TypewireCore

/// Identifies a reply a bot is streaming.
struct StreamKey: Hashable {
    var conversation: String
    var messageId: String
    var bot: String
}

/// The replies (turns) bots are streaming on this node, and how each ends. A pure value: parts, stops and the
/// clock come in, what to tell whom comes out; the hub relays, stores and arms the timers.
///
/// - A reply opens with its first part and ends with the bot's final part, or by the server: when no part
///   came for the reply timeout (``ReplyEnd/timedOut``), or when a member asked to stop it and the bot did
///   not end it within the grace (``ReplyEnd/cancelled``). A bot whose sockets all closed is not told
///   apart from a silent one: it may reconnect and go on within the timeout.
/// - An ended reply is remembered (the last ``endedKept`` per bot), so that a late part, or a stop, for it
///   is refused with `turn_ended` rather than opening it again.
/// - Bounded: a bot keeps at most `maxOpen` replies open and each at most `maxLength` characters, so a bot
///   that starts replies and never finishes them cannot grow the node. Every operation touches one bot's
///   replies (a handful), never all of the node's.
struct OpenReplies {
    /// One reply under way.
    struct Reply {
        var text: String
        var lastPartAt: Int64
        /// How many parts were relayed; the next has this number plus one.
        var parts: Int64 = 0
        /// The member it answers (named by its first part), who alone (with the bot) may stop it; nil: any
        /// member may.
        var asker: String?
        var thread: String?
        /// Who asked to stop it, and when.
        var stop: (by: String, at: Int64)?
    }

    /// What became of one part.
    enum PartOutcome: Equatable {
        /// The reply ended before (by the bot or the server): the members saw its end.
        case ended(ReplyEnd)
        /// The bot has `maxOpen` replies open already.
        case tooManyOpen
        /// The reply would pass `maxLength` characters: it ends as ``ReplyEnd/failed``; if it was open, the
        /// members are told with this part number and thread.
        case tooLong(wasOpen: Bool, seq: Int64, thread: String?)
        /// Taken: the reply's text so far, the part's number, whether it began the reply, the member it
        /// answers (if the bot named one), and the member who asked to stop it (if one did).
        case accepted(text: String, seq: Int64, isFirst: Bool, asker: String?, stoppedBy: String?)
    }

    /// What a member's request to stop a reply became.
    enum StopOutcome: Equatable {
        /// No reply of that id is under way in the conversation; `ended` says how it ended, if it did lately.
        case notUnderWay(ended: ReplyEnd?)
        /// The reply answers someone else.
        case notTheAsker(String)
        /// Asked now: tell these bots (one reply id may belong to several bots' replies).
        case asked(bots: [String])
        /// Someone asked already: the bot was told.
        case askedBefore
    }

    /// What the clock says of a reply.
    enum Due: Equatable {
        /// It ended meanwhile.
        case gone
        /// It is over: end it for everyone with this end, part number and thread.
        case end(ReplyEnd, by: String?, seq: Int64, thread: String?)
        /// Nothing yet: look again at this time.
        case wait(until: Int64)
    }

    /// How many ended replies are remembered per bot.
    static let endedKept = 64

    private var replies: [StreamKey: Reply] = [:]
    private var keysByBot: [String: Set<StreamKey>] = [:]
    /// The open replies by conversation and id, for a stop (which does not name the bot).
    private var keysByReply: [ReplyRef: Set<StreamKey>] = [:]
    /// The open replies by conversation, for a socket that subscribes mid-reply.
    private var keysByConversation: [String: Set<StreamKey>] = [:]
    /// How the remembered replies ended: looked up on every part, so a dictionary.
    private var ended: [StreamKey: ReplyEnd] = [:]
    /// The remembered ended replies of each bot, oldest first (at most ``endedKept``).
    private var endedByBot: [String: [StreamKey]] = [:]
    /// The last reply that ended under each conversation and id, for a stop (which does not name the bot).
    private var endedByReply: [ReplyRef: StreamKey] = [:]

    private struct ReplyRef: Hashable {
        var conversation: String
        var messageId: String
    }

    /// A reply under way.
    subscript(key: StreamKey) -> Reply? {
        replies[key]
    }

    /// The replies under way in a conversation, each as one `stream` frame with the text so far (`text`) and
    /// the number of its last part, for a socket that subscribes while they stream (sorted by bot and id;
    /// each stands alone).
    func catchUp(in conversation: String) -> [ServerFrame.StreamDelta] {
        (keysByConversation[conversation] ?? []).sorted { ($0.bot, $0.messageId) < ($1.bot, $1.messageId) }.compactMap { key in
            replies[key].map { reply in
                ServerFrame.StreamDelta(
                    conversation: key.conversation, messageId: key.messageId, user: key.bot, delta: "", final: false, thread: reply.thread,
                    seq: reply.parts, asker: reply.asker, text: reply.text)
            }
        }
    }

    /// How many replies a bot has open.
    func count(of bot: String) -> Int {
        keysByBot[bot]?.count ?? 0
    }

    /// How a reply ended, if it did lately.
    func end(of key: StreamKey) -> ReplyEnd? {
        ended[key]
    }

    /// Takes a part of a reply at `time`.
    mutating func take(_ part: ClientFrame.Stream, bot: String, at time: Int64, maxOpen: Int, maxLength: Int) -> PartOutcome {
        let key = StreamKey(conversation: part.conversation, messageId: part.messageId, bot: bot)
        if let end = end(of: key) { return .ended(end) }
        let known = replies[key]
        guard known != nil || part.isFinal || count(of: bot) < maxOpen else { return .tooManyOpen }
        // The final part may carry the whole reply: then parts refused or lost on the way do not matter.
        let text = part.isFinal ? part.text ?? (known?.text ?? "") + part.delta : (known?.text ?? "") + part.delta
        guard text.count <= maxLength else {
            finish(key, as: .failed)
            return .tooLong(wasOpen: known != nil, seq: (known?.parts ?? 0) + 1, thread: known?.thread ?? part.thread)
        }
        var reply = known ?? Reply(text: "", lastPartAt: time, asker: part.asker, thread: part.thread)
        reply.text = text
        reply.lastPartAt = time
        reply.parts += 1
        if part.isFinal {
            finish(key, as: part.end ?? .finished)
        } else {
            open(key, reply)
        }
        return .accepted(text: text, seq: reply.parts, isFirst: known == nil, asker: reply.asker, stoppedBy: reply.stop?.by)
    }

    /// A member (`user`) asks to stop the reply `messageId` of `conversation` at `time`.
    mutating func stop(_ messageId: String, in conversation: String, by user: String, at time: Int64) -> StopOutcome {
        let keys = keysByReply[ReplyRef(conversation: conversation, messageId: messageId)] ?? []
        guard !keys.isEmpty else {
            return .notUnderWay(ended: endedByReply[ReplyRef(conversation: conversation, messageId: messageId)].flatMap { ended[$0] })
        }
        var bots: [String] = []
        var refusal: String?
        for key in keys.sorted(by: { $0.bot < $1.bot }) {
            guard var reply = replies[key] else { continue }
            if let asker = reply.asker, asker != user, key.bot != user {
                refusal = asker
                continue
            }
            guard reply.stop == nil else { continue }
            reply.stop = (user, time)
            replies[key] = reply
            bots.append(key.bot)
        }
        if bots.isEmpty, let refusal { return .notTheAsker(refusal) }
        return bots.isEmpty ? .askedBefore : .asked(bots: bots)
    }

    /// What the clock says of a reply at `time`: past its timeout since the last part, or past the grace
    /// since a stop, the server ends it (and remembers the end).
    mutating func due(_ key: StreamKey, at time: Int64, timeout: Int64, grace: Int64) -> Due {
        guard let reply = replies[key] else { return .gone }
        let stopAt = reply.stop.map { $0.at.addingReportingOverflow(grace).partialValue }
        let timeoutAt = reply.lastPartAt.addingReportingOverflow(timeout).partialValue
        if let stopAt, time >= stopAt {
            finish(key, as: .cancelled)
            return .end(.cancelled, by: reply.stop?.by, seq: reply.parts + 1, thread: reply.thread)
        }
        if time >= timeoutAt {
            finish(key, as: .timedOut)
            return .end(.timedOut, by: nil, seq: reply.parts + 1, thread: reply.thread)
        }
        return .wait(until: min(timeoutAt, stopAt ?? .max))
    }

    /// Ends a reply (its final part came, or the bot sent it whole as a message) and remembers how.
    mutating func finish(_ key: StreamKey, as end: ReplyEnd) {
        if replies.removeValue(forKey: key) != nil {
            keysByBot[key.bot]?.remove(key)
            if keysByBot[key.bot]?.isEmpty == true { keysByBot[key.bot] = nil }
            let ref = ReplyRef(conversation: key.conversation, messageId: key.messageId)
            keysByReply[ref]?.remove(key)
            if keysByReply[ref]?.isEmpty == true { keysByReply[ref] = nil }
            keysByConversation[key.conversation]?.remove(key)
            if keysByConversation[key.conversation]?.isEmpty == true { keysByConversation[key.conversation] = nil }
        }
        var order = endedByBot[key.bot, default: []]
        if ended.updateValue(end, forKey: key) != nil { order.removeAll { $0 == key } }
        order.append(key)
        endedByReply[ReplyRef(conversation: key.conversation, messageId: key.messageId)] = key
        while order.count > Self.endedKept {
            let old = order.removeFirst()
            ended[old] = nil
            let ref = ReplyRef(conversation: old.conversation, messageId: old.messageId)
            if endedByReply[ref] == old { endedByReply[ref] = nil }
        }
        endedByBot[key.bot] = order
    }

    private mutating func open(_ key: StreamKey, _ reply: Reply) {
        if replies.updateValue(reply, forKey: key) == nil {
            keysByBot[key.bot, default: []].insert(key)
            keysByReply[ReplyRef(conversation: key.conversation, messageId: key.messageId), default: []].insert(key)
            keysByConversation[key.conversation, default: []].insert(key)
        }
    }
}

/// The node's ``OpenReplies``, shared by the hub's shards: a bot's replies in conversations of different
/// shards count against one cap. Touched by `stream` and `cancel` frames (and a bot's `send` of a cut-off
/// reply) and by each open reply's timer, not by other frames.
final class SharedOpenReplies: Sendable {
    private let replies = NIOLockedValueBox(OpenReplies())

    /// Runs `body` on the replies, alone.
    func withLockedValue<T>(_ body: (inout OpenReplies) -> T) -> T {
        replies.withLockedValue { body(&$0) }
    }
}
