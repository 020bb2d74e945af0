import Foundation
import TypewireCore

/// One event for the app's backend: what happened, in a JSON document each endpoint gets as it is.
///
/// ```json
/// {"id":"evt_6f1c…","type":"message.created","createdAt":1764201234567,
///  "data":{"message":{…},"offline":["bob"]}}
/// ```
///
/// `id` is the same in every attempt of every endpoint's delivery: a receiver deduplicates by it (delivery
/// is at least once).
public struct WebhookEvent: Sendable, Hashable {
    /// What the event says, by type.
    public enum Payload: Sendable, Hashable {
        /// A message was stored; `offline` lists the members (not the sender) who had no socket open on
        /// any node when it was.
        case messageCreated(ChatMessage, offline: [String])
        /// A message's text was edited.
        case messageEdited(ChatMessage)
        /// A bot began streaming a reply (`replyId` is the stream's message id).
        case replyStarted(conversation: String, replyId: String, bot: String)
        /// A bot's streamed reply ended: with its final part, or by the server (``ReplyEnd``); `by` is who
        /// stopped a cancelled one, `reason` the bot's word for a failed one.
        case replyFinished(
            conversation: String, replyId: String, bot: String, end: ReplyEnd = .finished, by: String? = nil, reason: String? = nil)
        /// A user came online or went offline.
        case presenceChanged(user: String, online: Bool)
        /// Users joined or left a conversation; `deleted` when the conversation itself went.
        case membersChanged(conversation: String, added: [String], removed: [String], deleted: Bool)
        /// A user's activity in a conversation (in a thread, if given) is now this (`none` when it ended).
        case activityChanged(conversation: String, user: String, activity: MemberActivity, thread: String? = nil)
        /// A member's mark in a timeline (a thread, if given) moved to a message; `isPrivate` when only their
        /// own count moved (a private read, or a user who hides their reading: the others were told nothing).
        case messageRead(conversation: String, thread: String?, mark: ReadMark, isPrivate: Bool)
        /// A main-timeline message that `users` (members, not the sender nor bots) had not read by the
        /// reminder's delay.
        case unreadReminder(conversation: String, messageId: String, sender: String, sentAt: Int64, users: [String])

        /// The event's type.
        public var type: WebhookEventType {
            switch self {
            case .messageCreated: .messageCreated
            case .messageEdited: .messageEdited
            case .replyStarted: .replyStarted
            case .replyFinished: .replyFinished
            case .presenceChanged: .presenceChanged
            case .membersChanged: .membersChanged
            case .activityChanged: .activityChanged
            case .messageRead: .messageRead
            case .unreadReminder: .unreadReminder
            }
        }
    }

    /// The event's id, `evt_` and 32 hex digits: the same in every retry.
    public var id: String
    /// When the server made the event (milliseconds since 1970).
    public var createdAt: Int64
    /// What happened.
    public var payload: Payload

    /// Creates an event.
    public init(id: String, createdAt: Int64, payload: Payload) {
        self.id = id
        self.createdAt = createdAt
        self.payload = payload
    }

    /// The event's type.
    public var type: WebhookEventType { payload.type }

    /// What makes a later event of the same key replace this one while it waits in the outbox: a message's
    /// edits (the last text is what a receiver needs); nil for every other event, each sent.
    public var coalescingKey: String? {
        switch payload {
        case .messageEdited(let message): "\(type.rawValue) \(message.conversation) \(message.id)"
        case .messageRead(let conversation, let thread, let mark, _): "\(type.rawValue) \(conversation) \(thread ?? "") \(mark.user)"
        default: nil
        }
    }

    /// A new event id: `evt_` and 128 random bits in hex.
    public static func makeID<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        let words = [generator.next() as UInt64, generator.next() as UInt64]
        return "evt_" + Hex.encode(words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) } })
    }

    /// A new event id from the system's random source.
    public static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        return makeID(using: &generator)
    }

    /// The JSON document sent to each endpoint, keys sorted so that equal events are equal bytes.
    public func body() -> String {
        let document = Document(id: id, type: type.rawValue, createdAt: createdAt, data: Document.Data(payload))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and arrays cannot fail.
        return String(decoding: (try? encoder.encode(document)) ?? Data(), as: UTF8.self)
    }
}

/// The wire form of ``WebhookEvent``.
private struct Document: Encodable {
    var id: String
    var type: String
    var createdAt: Int64
    var data: Data

    struct Data: Encodable {
        var message: ChatMessage?
        var offline: [String]?
        var conversation: String?
        var replyId: String?
        var bot: String?
        var end: String?
        var by: String?
        var reason: String?
        var user: String?
        var online: Bool?
        var added: [String]?
        var removed: [String]?
        var deleted: Bool?
        var activity: String?
        var detail: String?
        var thread: String?
        var messageId: String?
        var at: Int64?
        var `private`: Bool?
        var sender: String?
        var sentAt: Int64?
        var users: [String]?

        init(_ payload: WebhookEvent.Payload) {
            switch payload {
            case .messageCreated(let message, let offline):
                self.message = message
                self.offline = offline
            case .messageEdited(let message):
                self.message = message
            case .replyStarted(let conversation, let replyId, let bot):
                self.conversation = conversation
                self.replyId = replyId
                self.bot = bot
            case .replyFinished(let conversation, let replyId, let bot, let end, let by, let reason):
                self.conversation = conversation
                self.replyId = replyId
                self.bot = bot
                self.end = end.rawValue
                self.by = by
                self.reason = reason
            case .presenceChanged(let user, let online):
                self.user = user
                self.online = online
            case .membersChanged(let conversation, let added, let removed, let deleted):
                self.conversation = conversation
                self.added = added
                self.removed = removed
                self.deleted = deleted
            case .activityChanged(let conversation, let user, let activity, let thread):
                self.conversation = conversation
                self.thread = thread
                self.user = user
                self.activity = activity.kind.rawValue
                self.detail = activity.detail
            case .messageRead(let conversation, let thread, let mark, let isPrivate):
                self.conversation = conversation
                self.thread = thread
                self.user = mark.user
                self.messageId = mark.messageId
                self.at = mark.at
                self.private = isPrivate
            case .unreadReminder(let conversation, let messageId, let sender, let sentAt, let users):
                self.conversation = conversation
                self.messageId = messageId
                self.sender = sender
                self.sentAt = sentAt
                self.users = users
            }
        }
    }
}
