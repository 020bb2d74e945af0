/// A frame the server sends to a client.
public enum ServerFrame: Hashable, Sendable {
    /// The answer to a valid `hello`.
    case welcome(Welcome)
    /// The answer to `subscribe`: the conversation's current state.
    case subscribed(Subscribed)
    /// The whole activity state of a conversation, sent whenever it changes.
    case activity(ActivityUpdate)
    /// A member came online or went offline.
    case presence(Presence)
    /// A new or edited message.
    case message(ChatMessage)
    /// The sender's message was stored.
    case ack(Ack)
    /// Part of a bot's reply, as it streams; the final one says how it ended.
    case stream(StreamDelta)
    /// To a bot: a member asks it to stop a reply.
    case cancel(CancelRequest)
    /// A frame could not be handled; the socket stays usable.
    case error(Failure)
    /// The answer to a valid `refresh`: the socket now lives until the new token expires.
    case refreshed(Refreshed)
    /// Members read further: their new watermarks in a conversation's timeline.
    case receipts(Receipts)
    /// The user's own mark moved (on any device of theirs): it and their unread count in that timeline.
    case unread(Unread)

    /// `unread {conversation, thread?, messageId, count}`: the user read up to `messageId` in a timeline (on
    /// this device or another, privately or not), and `count` messages of others there are past it (up to
    /// ``WireProtocol/maxUnreadCount``: that many or more).
    public struct Unread: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The thread (its parent message's id), or nil for the main timeline.
        public var thread: String?
        /// The newest message the user read there; nil when none is (they marked it unread from its first).
        public var messageId: String?
        /// The messages of others past it, counted up to ``WireProtocol/maxUnreadCount``.
        public var count: Int
        /// Creates the frame.
        public init(conversation: String, thread: String? = nil, messageId: String?, count: Int) {
            self.conversation = conversation
            self.thread = thread
            self.messageId = messageId
            self.count = count
        }
    }

    /// `receipts {conversation, thread?, reads, delivered?, readCounts?}`: the watermarks that moved in a timeline
    /// since the last `receipts` of the conversation (at most one a second per conversation), each member's
    /// latest; in a group too large to name its readers, `reads` is empty and `readCounts` counts them
    /// instead (and no delivered marks are told).
    public struct Receipts: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The thread (its parent message's id), or nil for the main timeline.
        public var thread: String?
        /// The members' new marks, one per member; empty in a large group.
        public var reads: [ReadMark]
        /// The members' new delivered marks (the newest message one of their devices received), one per
        /// member; nil when none moved.
        public var delivered: [ReadMark]?
        /// In a large group, the readers of the timeline's newest messages (up to
        /// ``WireProtocol/readCountMessages``), newest first; nil otherwise.
        public var readCounts: [ReadCount]?
        /// Creates the frame.
        public init(
            conversation: String, thread: String? = nil, reads: [ReadMark], delivered: [ReadMark]? = nil, readCounts: [ReadCount]? = nil
        ) {
            self.conversation = conversation
            self.thread = thread
            self.reads = reads
            self.delivered = delivered
            self.readCounts = readCounts
        }
    }

    /// `refreshed {expiresAt}`.
    public struct Refreshed: Codable, Hashable, Sendable {
        /// When the new token expires, in milliseconds since 1970: the socket is closed then unless it is
        /// refreshed again.
        public var expiresAt: Int64
        /// Creates the frame.
        public init(expiresAt: Int64) { self.expiresAt = expiresAt }
    }

    /// `welcome {user, serverTime, config}`.
    public struct Welcome: Codable, Hashable, Sendable {
        /// The user the token named.
        public var user: ConversationMember
        /// The server's clock (milliseconds).
        public var serverTime: Int64
        /// The intervals clients should use.
        public var config: ClientConfiguration
        /// Creates the frame.
        public init(user: ConversationMember, serverTime: Int64, config: ClientConfiguration) {
            self.user = user
            self.serverTime = serverTime
            self.config = config
        }
    }

    /// The intervals a server asks its clients to use, in milliseconds.
    public struct ClientConfiguration: Codable, Hashable, Sendable {
        /// How long an activity lives on the server after its last refresh.
        public var activityTTL: Int64
        /// The sender's least time between two "still typing" frames.
        public var refreshInterval: Int64
        /// The sender's time without a keystroke before it stops.
        public var idleTimeout: Int64
        /// Whether the server keeps messages; false in typing-only mode, where `send` and `edit` are
        /// refused (a bot's `stream` is relayed, not stored) and a client stops its typing itself when the
        /// user sends (absent means true).
        public var storesMessages: Bool
        /// How often the server pings the socket; a client pings as often, so that it notices a dead
        /// connection as soon as the server does (absent: the client chooses).
        public var pingInterval: Int64?
        /// The longest message text the server takes, in characters (absent: not said).
        public var maxMessageLength: Int64?
        /// The largest frame the server reads whole, in bytes of UTF-8 (absent: not said). A client refuses
        /// a longer message itself rather than send a frame the server must answer with `too_large`, or
        /// past four times this, close the socket for.
        public var maxFrameSize: Int64?
        /// The server's release (``TypewireVersion/current`` on the server), for a client's diagnostics
        /// (absent: not said).
        public var serverVersion: String?

        /// Creates the configuration.
        public init(
            activityTTL: Int64, refreshInterval: Int64, idleTimeout: Int64, storesMessages: Bool = true, pingInterval: Int64? = nil,
            maxMessageLength: Int64? = nil, maxFrameSize: Int64? = nil, serverVersion: String? = nil
        ) {
            self.activityTTL = activityTTL
            self.refreshInterval = refreshInterval
            self.idleTimeout = idleTimeout
            self.storesMessages = storesMessages
            self.pingInterval = pingInterval
            self.maxMessageLength = maxMessageLength
            self.maxFrameSize = maxFrameSize
            self.serverVersion = serverVersion
        }

        /// The shortest and longest interval a client takes from a server, in milliseconds: a `refreshInterval`
        /// of 0 would be a tight loop of frames, a `pingInterval` of a day no liveness check at all.
        public static let clientIntervals: ClosedRange<Int64> = 500...60_000

        /// The configuration with its intervals (`refreshInterval`, `idleTimeout`, `pingInterval`) clamped to
        /// ``clientIntervals``: what a client acts on, whatever a server (or whoever answers in its place) says.
        public var clampedForClients: ClientConfiguration {
            var clamped = self
            clamped.refreshInterval = refreshInterval.clamped(to: Self.clientIntervals)
            clamped.idleTimeout = idleTimeout.clamped(to: Self.clientIntervals)
            clamped.pingInterval = pingInterval?.clamped(to: Self.clientIntervals)
            return clamped
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            activityTTL = try container.decode(Int64.self, forKey: .activityTTL)
            refreshInterval = try container.decode(Int64.self, forKey: .refreshInterval)
            idleTimeout = try container.decode(Int64.self, forKey: .idleTimeout)
            storesMessages = try container.decodeIfPresent(Bool.self, forKey: .storesMessages) ?? true
            pingInterval = try container.decodeIfPresent(Int64.self, forKey: .pingInterval)
            maxMessageLength = try container.decodeIfPresent(Int64.self, forKey: .maxMessageLength)
            maxFrameSize = try container.decodeIfPresent(Int64.self, forKey: .maxFrameSize)
            serverVersion = try container.decodeIfPresent(String.self, forKey: .serverVersion)
        }
    }

    /// `subscribed {conversation, participants, activity, recentMessages}`.
    public struct Subscribed: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// Its members.
        public var participants: [ConversationMember]
        /// Its current activity.
        public var activity: ActivityUpdate
        /// Its latest messages, oldest first.
        public var recentMessages: [ChatMessage]
        /// `false` in a large group: no `presence` frames follow (each member's connect would reach every
        /// member), so `online` above is a snapshot, and a receiver should not hide typers it believes
        /// offline. Absent (nil) otherwise.
        public var presence: Bool?
        /// How many messages of others in the main timeline the subscriber has not read (past their
        /// watermark), at most ``WireProtocol/maxUnreadCount``; absent on a server that stores no messages.
        public var unread: Int?
        /// The members' watermarks in the main timeline (those who read anything; empty in a group too large
        /// to name its readers); absent on a server that stores no messages.
        public var reads: [ReadMark]?
        /// The members' delivered marks in the main timeline (the newest message one of their devices
        /// received; those who received anything), in a group small enough to name its readers; nil otherwise.
        public var delivered: [ReadMark]?
        /// In a group too large to name its readers, the readers of the main timeline's newest messages (up
        /// to ``WireProtocol/readCountMessages``), newest first; nil otherwise.
        public var readCounts: [ReadCount]?
        /// Creates the frame.
        public init(
            conversation: String, participants: [ConversationMember], activity: ActivityUpdate, recentMessages: [ChatMessage],
            presence: Bool? = nil, unread: Int? = nil, reads: [ReadMark]? = nil, delivered: [ReadMark]? = nil,
            readCounts: [ReadCount]? = nil
        ) {
            self.conversation = conversation
            self.participants = participants
            self.activity = activity
            self.recentMessages = recentMessages
            self.presence = presence
            self.unread = unread
            self.reads = reads
            self.delivered = delivered
            self.readCounts = readCounts
        }

        /// Whether `presence` frames keep the participants' `online` up to date.
        public var followsPresence: Bool { presence != false }
    }

    /// `presence {conversation, user, online}`.
    public struct Presence: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The user whose presence changed.
        public var user: String
        /// Whether the user now has a live connection.
        public var online: Bool
        /// With `online: false`: when the user was last seen (now, to the minute), if the receiver shares
        /// their own presence.
        public var lastSeenAt: Int64?
        /// With `online: false`: `recently`, for a receiver who hides their own presence (or when the user
        /// just hid theirs).
        public var lastSeen: LastSeen?
        /// Creates the frame.
        public init(conversation: String, user: String, online: Bool, lastSeenAt: Int64? = nil, lastSeen: LastSeen? = nil) {
            self.conversation = conversation
            self.user = user
            self.online = online
            self.lastSeenAt = lastSeenAt
            self.lastSeen = lastSeen
        }
    }

    /// `ack {clientMessageId, messageId}`.
    public struct Ack: Codable, Hashable, Sendable {
        /// The key the client sent.
        public var clientMessageId: String
        /// The server's id of the stored message.
        public var messageId: String
        /// Creates the frame.
        public init(clientMessageId: String, messageId: String) {
            self.clientMessageId = clientMessageId
            self.messageId = messageId
        }
    }

    /// `stream {conversation, messageId, user, delta, final, seq?, end?, by?, reason?, asker?, text?, thread?}`: part of a
    /// bot's reply. The final one ends it for every member at the same moment, whoever ended it: the bot,
    /// or the server (a timeout, or a stop the bot did not honour in time).
    public struct StreamDelta: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The reply's id.
        public var messageId: String
        /// The bot's user id.
        public var user: String
        /// The text to append.
        public var delta: String
        /// Whether the reply is complete.
        public var final: Bool
        /// The thread the reply answers in (the parent message's id); nil for the main timeline.
        public var thread: String?
        /// The part's number in its reply, from 1 (each part the server relayed counts one, the end too);
        /// nil from a server before 0.2.
        public var seq: Int64?
        /// With the final part: how the reply ended; nil from a server before 0.2 (``ReplyEnd/finished``).
        public var end: ReplyEnd?
        /// With a ``ReplyEnd/cancelled`` end: the member who asked to stop it.
        public var by: String?
        /// With a ``ReplyEnd/failed`` end: why, as the bot said it.
        public var reason: String?
        /// The member the reply answers, who alone (with the bot) may stop it; nil: any member may.
        public var asker: String?
        /// A catch-up: the whole reply so far (up to and with part `seq`), to replace what the client has of it.
        /// The server sends one right after `subscribed` for each reply under way; the live parts follow.
        public var text: String?
        /// Creates the frame.
        public init(
            conversation: String, messageId: String, user: String, delta: String, final: Bool, thread: String? = nil, seq: Int64? = nil,
            end: ReplyEnd? = nil, by: String? = nil, reason: String? = nil, asker: String? = nil, text: String? = nil
        ) {
            self.conversation = conversation
            self.messageId = messageId
            self.user = user
            self.delta = delta
            self.final = final
            self.thread = thread
            self.seq = seq
            self.end = end
            self.by = by
            self.reason = reason
            self.asker = asker
            self.text = text
        }

        /// How the reply ended, if this is its final part (``ReplyEnd/finished`` when the server does not say).
        public var ending: ReplyEnd? { final ? end ?? .finished : nil }
    }

    /// `cancel {conversation, messageId, by}`, to a bot's sockets: a member asks to stop the reply. The bot
    /// ends it with a final part saying ``ReplyEnd/cancelled``; past the server's grace, the server ends it.
    public struct CancelRequest: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The reply's id.
        public var messageId: String
        /// The member who asked.
        public var by: String
        /// Creates the frame.
        public init(conversation: String, messageId: String, by: String) {
            self.conversation = conversation
            self.messageId = messageId
            self.by = by
        }
    }

    /// `error {code, message, ref, request}`.
    public struct Failure: Codable, Hashable, Sendable {
        /// The machine-readable reason.
        public var code: ErrorCode
        /// What went wrong and what to do, for a person.
        public var message: String
        /// What the error answers, when known: the conversation of a `subscribe`, the `clientMessageId` of
        /// a `send`, the `messageId` of an `edit` or a `stream`, or else the frame type.
        public var ref: String?
        /// The type of the client frame the error answers (`subscribe`, `send`, `edit`, `stream`,
        /// `activity`, `hello`, …), when known: a client matches the error to its request by it, since
        /// ids of different kinds may be equal.
        public var request: String?
        /// Creates the frame.
        public init(code: ErrorCode, message: String, ref: String? = nil, request: String? = nil) {
            self.code = code
            self.message = message
            self.ref = ref
            self.request = request
        }

        /// Creates the frame answering a client frame of this kind.
        public init(code: ErrorCode, message: String, ref: String? = nil, request: ClientFrame.Kind) {
            self.init(code: code, message: message, ref: ref, request: request.rawValue)
        }
    }
}

extension ServerFrame: Codable {
    /// The frame types a server sends, by wire name.
    public static let typeNames = [
        "welcome", "subscribed", "activity", "presence", "message", "ack", "stream", "cancel", "error", "refreshed", "receipts",
        "unread",
    ]

    /// The frame's wire name.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .subscribed: "subscribed"
        case .activity: "activity"
        case .presence: "presence"
        case .message: "message"
        case .ack: "ack"
        case .stream: "stream"
        case .cancel: "cancel"
        case .error: "error"
        case .refreshed: "refreshed"
        case .receipts: "receipts"
        case .unread: "unread"
        }
    }

    public init(from decoder: any Decoder) throws {
        let type = try FrameType.decode(from: decoder)
        switch type {
        case "welcome": self = .welcome(try .init(from: decoder))
        case "subscribed": self = .subscribed(try .init(from: decoder))
        case "activity": self = .activity(try .init(from: decoder))
        case "presence": self = .presence(try .init(from: decoder))
        case "message": self = .message(try .init(from: decoder))
        case "ack": self = .ack(try .init(from: decoder))
        case "stream": self = .stream(try .init(from: decoder))
        case "cancel": self = .cancel(try .init(from: decoder))
        case "error": self = .error(try .init(from: decoder))
        case "refreshed": self = .refreshed(try .init(from: decoder))
        case "receipts": self = .receipts(try .init(from: decoder))
        case "unread": self = .unread(try .init(from: decoder))
        default: throw FrameDecodingError.unknownType(type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try FrameType.encode(type, to: encoder)
        switch self {
        case .welcome(let frame): try frame.encode(to: encoder)
        case .subscribed(let frame): try frame.encode(to: encoder)
        case .activity(let frame): try frame.encode(to: encoder)
        case .presence(let frame): try frame.encode(to: encoder)
        case .message(let frame): try frame.encode(to: encoder)
        case .ack(let frame): try frame.encode(to: encoder)
        case .stream(let frame): try frame.encode(to: encoder)
        case .cancel(let frame): try frame.encode(to: encoder)
        case .error(let frame): try frame.encode(to: encoder)
        case .refreshed(let frame): try frame.encode(to: encoder)
        case .receipts(let frame): try frame.encode(to: encoder)
        case .unread(let frame): try frame.encode(to: encoder)
        }
    }
}

extension Comparable {
    /// The value, or the nearer end of `range` if it lies outside it.
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
