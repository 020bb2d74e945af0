/// A frame a client sends to the server.
public enum ClientFrame: Hashable, Sendable {
    /// The first frame on a socket: who the client is.
    case hello(Hello)
    /// A fresh token for the same user, on a socket that said hello: the socket lives on until it expires.
    case refresh(Refresh)
    /// Start receiving a conversation's activity, presence and messages.
    case subscribe(Subscribe)
    /// Stop receiving a conversation.
    case unsubscribe(Unsubscribe)
    /// Set the sender's own activity in a conversation.
    case activity(SetActivity)
    /// Send a message.
    case send(Send)
    /// Edit one's own message.
    case edit(Edit)
    /// A bot streams part of a reply.
    case stream(Stream)
    /// A member asks to stop a bot's reply under way.
    case cancel(Cancel)
    /// The user read a conversation (or a thread of it) up to a message.
    case read(Read)
    /// The user marks a conversation (or a thread of it) unread from a message on.
    case markUnread(MarkUnread)
    /// The user's device received a conversation's (or a thread's) messages up to one.
    case delivered(Delivered)

    /// `hello {token}`.
    public struct Hello: Codable, Hashable, Sendable {
        /// A JWT naming the user: HS256 with the server's secret, or RS256 or ES256 with a key of the identity
        /// provider's key set.
        public var token: String
        /// Creates the frame.
        public init(token: String) { self.token = token }
    }

    /// `refresh {token}`: a token for the user the socket said hello as, verified as a `hello`'s is.
    public struct Refresh: Codable, Hashable, Sendable {
        /// The new token.
        public var token: String
        /// Creates the frame.
        public init(token: String) { self.token = token }
    }

    /// `subscribe {conversation}`.
    public struct Subscribe: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// Whether the socket follows the conversation's read state: then `subscribed` carries the unread
        /// count and the members' watermarks, and `receipts` follow. Absent: no (it costs two reads of the
        /// store per subscribe).
        public var readState: Bool?
        /// Creates the frame.
        public init(conversation: String, readState: Bool? = nil) {
            self.conversation = conversation
            self.readState = readState
        }
    }

    /// `unsubscribe {conversation}`.
    public struct Unsubscribe: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// Creates the frame.
        public init(conversation: String) { self.conversation = conversation }
    }

    /// `activity {conversation, activity, detail?, thread?}`.
    public struct SetActivity: Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The sender's activity; ``MemberActivity/none`` clears it.
        public var activity: MemberActivity
        /// The thread it happens in (the parent message's id); nil for the main timeline.
        public var thread: String?
        /// Creates the frame.
        public init(conversation: String, activity: MemberActivity, thread: String? = nil) {
            self.conversation = conversation
            self.activity = activity
            self.thread = thread
        }
    }

    /// `send {conversation, clientMessageId, text, thread?}`.
    public struct Send: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// A key the client chooses, unique per message: a retry with the same key stores nothing new.
        public var clientMessageId: String
        /// The text.
        public var text: String
        /// The message it answers, in that message's thread; nil for the main timeline.
        public var thread: String?
        /// Creates the frame.
        public init(conversation: String, clientMessageId: String, text: String, thread: String? = nil) {
            self.conversation = conversation
            self.clientMessageId = clientMessageId
            self.text = text
            self.thread = thread
        }
    }

    /// `edit {conversation, messageId, text}`.
    public struct Edit: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The server's id of the message.
        public var messageId: String
        /// The new text.
        public var text: String
        /// Creates the frame.
        public init(conversation: String, messageId: String, text: String) {
            self.conversation = conversation
            self.messageId = messageId
            self.text = text
        }
    }

    /// `cancel {conversation, messageId}`: stop the reply a bot is streaming (its `stream` frames'
    /// `messageId`). The server tells the bot at once; if the bot does not end the reply within a grace, the
    /// server ends it for everyone (``ReplyEnd/cancelled``).
    public struct Cancel: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The reply's id.
        public var messageId: String
        /// Creates the frame.
        public init(conversation: String, messageId: String) {
            self.conversation = conversation
            self.messageId = messageId
        }
    }

    /// `read {conversation, messageId, private?}`: the user read the conversation up to this message, in the
    /// timeline the message is in (the main one, or its thread). The server moves the user's watermark there
    /// forward, never back, tells the user's own sockets their unread count (`unread`) and, unless the read
    /// is private, the conversation's members (`receipts`), at most once a second.
    public struct Read: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The server's id of the newest message read.
        public var messageId: String
        /// `private` on the wire: the read clears the user's unread count and tells no one else. Absent: false.
        public var isPrivate: Bool?
        /// On a typing-only server (`welcome`'s `storesMessages` false), where `messageId` is the app's own id:
        /// when the app says the message was sent (milliseconds since 1970), which orders the app's ids. Required
        /// there; a server that keeps messages ignores it.
        public var sentAt: Int64?
        /// On a typing-only server: the thread the message is in (its parent's id; absent: the main timeline).
        /// A server that keeps messages ignores it: it knows the message's timeline.
        public var thread: String?
        /// Creates the frame.
        public init(conversation: String, messageId: String, isPrivate: Bool? = nil, sentAt: Int64? = nil, thread: String? = nil) {
            self.conversation = conversation
            self.messageId = messageId
            self.isPrivate = isPrivate
            self.sentAt = sentAt
            self.thread = thread
        }

        private enum CodingKeys: String, CodingKey {
            case conversation, messageId, sentAt, thread
            case isPrivate = "private"
        }
    }

    /// `delivered {conversation, messageId}`: this device received the timeline the message is in (the main
    /// one, or its thread) up to this message. The server moves the user's delivered mark there forward,
    /// never back, and the members learn it in `receipts` (`delivered`), at most once a second; a user who
    /// hides their reading shows no delivered mark either.
    public struct Delivered: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The server's id of the newest message received (on a typing-only server, the app's own id).
        public var messageId: String
        /// On a typing-only server: when the app says the message was sent (``Read/sentAt``). Required there.
        public var sentAt: Int64?
        /// On a typing-only server: the thread the message is in (``Read/thread``).
        public var thread: String?
        /// Creates the frame.
        public init(conversation: String, messageId: String, sentAt: Int64? = nil, thread: String? = nil) {
            self.conversation = conversation
            self.messageId = messageId
            self.sentAt = sentAt
            self.thread = thread
        }
    }

    /// `markUnread {conversation, messageId}`: the user marks the timeline the message is in unread from it
    /// on ("mark unread" on a message). The one move of a watermark back: the user's own mark goes to the
    /// message before it, and their sockets are told their unread count (`unread`). Nobody else is told: the
    /// mark the others see stays where it was (they were told it was read, and it was).
    public struct MarkUnread: Codable, Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The server's id of the first message to show unread.
        public var messageId: String
        /// Creates the frame.
        public init(conversation: String, messageId: String) {
            self.conversation = conversation
            self.messageId = messageId
        }
    }

    /// `stream {conversation, messageId, delta, final?, text?, end?, reason?, asker?, thread?}`: part of a
    /// bot's reply.
    public struct Stream: Hashable, Sendable {
        /// The conversation's id.
        public var conversation: String
        /// The bot's id for the reply being streamed.
        public var messageId: String
        /// The text to append.
        public var delta: String
        /// Whether this is the last part; the whole reply is then stored as a message.
        public var isFinal: Bool
        /// With the last part: the whole reply, stored as given (otherwise the server stores the parts it
        /// received, which misses any it refused or lost).
        public var text: String?
        /// The thread the reply answers in (the parent message's id); nil for the main timeline.
        public var thread: String?
        /// With the last part: how the reply ends (nil: ``ReplyEnd/finished``). A ``ReplyEnd/failed`` reply
        /// is not stored; a ``ReplyEnd/cancelled`` one is stored if it has text.
        public var end: ReplyEnd?
        /// With a ``ReplyEnd/failed`` end: why, for the members (at most 200 characters).
        public var reason: String?
        /// The user the reply answers: only they (and the bot) may stop it. Nil: any member may.
        public var asker: String?
        /// Creates the frame.
        public init(
            conversation: String, messageId: String, delta: String, isFinal: Bool = false, text: String? = nil, thread: String? = nil,
            end: ReplyEnd? = nil, reason: String? = nil, asker: String? = nil
        ) {
            self.conversation = conversation
            self.messageId = messageId
            self.delta = delta
            self.isFinal = isFinal
            self.text = text
            self.thread = thread
            self.end = end
            self.reason = reason
            self.asker = asker
        }
    }
}

extension ClientFrame.SetActivity: Codable {
    private enum CodingKeys: String, CodingKey { case conversation, thread }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        conversation = try container.decode(String.self, forKey: .conversation)
        thread = try container.decodeIfPresent(String.self, forKey: .thread)
        activity = try MemberActivity(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(conversation, forKey: .conversation)
        try activity.encode(to: encoder)
        try container.encodeIfPresent(thread, forKey: .thread)
    }
}

extension ClientFrame.Stream: Codable {
    private enum CodingKeys: String, CodingKey { case conversation, messageId, delta, isFinal = "final", text, thread, end, reason, asker }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        conversation = try container.decode(String.self, forKey: .conversation)
        messageId = try container.decode(String.self, forKey: .messageId)
        delta = try container.decode(String.self, forKey: .delta)
        isFinal = try container.decodeIfPresent(Bool.self, forKey: .isFinal) ?? false
        text = try container.decodeIfPresent(String.self, forKey: .text)
        thread = try container.decodeIfPresent(String.self, forKey: .thread)
        end = try container.decodeIfPresent(ReplyEnd.self, forKey: .end)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        asker = try container.decodeIfPresent(String.self, forKey: .asker)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(conversation, forKey: .conversation)
        try container.encode(messageId, forKey: .messageId)
        try container.encode(delta, forKey: .delta)
        if isFinal { try container.encode(true, forKey: .isFinal) }
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeIfPresent(thread, forKey: .thread)
        try container.encodeIfPresent(end, forKey: .end)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encodeIfPresent(asker, forKey: .asker)
    }
}

extension ClientFrame: Codable {
    /// The kinds of frame a client sends, named as the `type` field names them.
    public enum Kind: String, CaseIterable, Sendable {
        case hello, refresh, subscribe, unsubscribe, activity, send, edit, stream, cancel, read, markUnread, delivered
    }

    /// The frame types a client may send, by wire name.
    public static let typeNames = Kind.allCases.map(\.rawValue)

    /// The frame's kind.
    public var kind: Kind {
        switch self {
        case .hello: .hello
        case .refresh: .refresh
        case .subscribe: .subscribe
        case .unsubscribe: .unsubscribe
        case .activity: .activity
        case .send: .send
        case .edit: .edit
        case .stream: .stream
        case .cancel: .cancel
        case .read: .read
        case .markUnread: .markUnread
        case .delivered: .delivered
        }
    }

    /// The frame's wire name.
    public var type: String { kind.rawValue }

    /// What an `error` answering this frame names as its `ref` (docs/PROTOCOL.md): the conversation for
    /// `subscribe` and `unsubscribe`, the `clientMessageId` for `send`, the `messageId` for `edit`,
    /// `stream`, `cancel`, `read`, `markUnread` and `delivered`, the frame type otherwise.
    public var reference: String {
        switch self {
        case .subscribe(let subscribe): subscribe.conversation
        case .unsubscribe(let unsubscribe): unsubscribe.conversation
        case .send(let send): send.clientMessageId
        case .edit(let edit): edit.messageId
        case .stream(let stream): stream.messageId
        case .cancel(let cancel): cancel.messageId
        case .read(let read): read.messageId
        case .markUnread(let mark): mark.messageId
        case .delivered(let delivered): delivered.messageId
        case .hello, .refresh, .activity: type
        }
    }

    /// The conversation the frame is about; nil for `hello`.
    public var conversation: String? {
        switch self {
        case .hello, .refresh: nil
        case .subscribe(let subscribe): subscribe.conversation
        case .unsubscribe(let unsubscribe): unsubscribe.conversation
        case .activity(let activity): activity.conversation
        case .send(let send): send.conversation
        case .edit(let edit): edit.conversation
        case .stream(let stream): stream.conversation
        case .cancel(let cancel): cancel.conversation
        case .read(let read): read.conversation
        case .markUnread(let mark): mark.conversation
        case .delivered(let delivered): delivered.conversation
        }
    }

    public init(from decoder: any Decoder) throws {
        let type = try FrameType.decode(from: decoder)
        switch type {
        case "hello": self = .hello(try .init(from: decoder))
        case "refresh": self = .refresh(try .init(from: decoder))
        case "subscribe": self = .subscribe(try .init(from: decoder))
        case "unsubscribe": self = .unsubscribe(try .init(from: decoder))
        case "activity": self = .activity(try .init(from: decoder))
        case "send": self = .send(try .init(from: decoder))
        case "edit": self = .edit(try .init(from: decoder))
        case "stream": self = .stream(try .init(from: decoder))
        case "cancel": self = .cancel(try .init(from: decoder))
        case "read": self = .read(try .init(from: decoder))
        case "markUnread": self = .markUnread(try .init(from: decoder))
        case "delivered": self = .delivered(try .init(from: decoder))
        default: throw FrameDecodingError.unknownType(type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try FrameType.encode(type, to: encoder)
        switch self {
        case .hello(let frame): try frame.encode(to: encoder)
        case .refresh(let frame): try frame.encode(to: encoder)
        case .subscribe(let frame): try frame.encode(to: encoder)
        case .unsubscribe(let frame): try frame.encode(to: encoder)
        case .activity(let frame): try frame.encode(to: encoder)
        case .send(let frame): try frame.encode(to: encoder)
        case .edit(let frame): try frame.encode(to: encoder)
        case .stream(let frame): try frame.encode(to: encoder)
        case .cancel(let frame): try frame.encode(to: encoder)
        case .read(let frame): try frame.encode(to: encoder)
        case .markUnread(let frame): try frame.encode(to: encoder)
        case .delivered(let frame): try frame.encode(to: encoder)
        }
    }
}
