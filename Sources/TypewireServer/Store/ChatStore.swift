import TypewireCore

/// A conversation as the store keeps it.
public struct Conversation: Sendable, Hashable, Codable {
    /// Direct (two people) or a group.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case direct
        case group

        /// Decodes `"direct"` or `"group"`; anything else fails with a message a person can act on (the
        /// REST APIs answer it as it is).
        public init(from decoder: any Decoder) throws {
            self = try decodeChoice(from: decoder)
        }
    }

    /// Who may stop a bot's reply in a conversation (``ClientFrame/cancel(_:)``); the server API sets it.
    public enum StopRule: String, Sendable, Hashable, Codable, CaseIterable {
        /// The member a reply answers (the `asker` its bot names) and the bot; a reply to the room, any
        /// member. The default: a person stops the answer to their own question, not someone else's.
        case asker
        /// Any member stops any reply: a team's shared assistant, which anyone may cut short.
        case members

        /// Decodes `"asker"` or `"members"`; anything else fails with a message a person can act on.
        public init(from decoder: any Decoder) throws {
            self = try decodeChoice(from: decoder)
        }
    }

    /// The conversation's id.
    public var id: String
    /// Direct or group.
    public var kind: Kind
    /// The title, for groups.
    public var title: String?
    /// The user who created it; its admin.
    public var creator: String
    /// Who may stop a bot's reply here.
    public var stopRule: StopRule = .asker
}

/// One of a string enum's values, decoded; any other text fails with the values it may be
/// (`it must be "direct" or "group", not "…".`), which the REST APIs answer as it is.
private func decodeChoice<Choice: RawRepresentable & CaseIterable>(from decoder: any Decoder) throws -> Choice
where Choice.RawValue == String {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let choice = Choice(rawValue: text) else {
        let names = Choice.allCases.map { "\"\($0.rawValue)\"" }
        let allowed = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "it must be \(allowed), not \"\(text.prefix(64))\".")
    }
    return choice
}

/// A stored message and whether this call stored it (false: the client message id was seen before).
public struct StoredMessage: Sendable, Hashable {
    /// The message.
    public var message: ChatMessage
    /// Whether the message is new; a retry of a stored message is not.
    public var isNew: Bool
}

/// When a user was last seen (milliseconds since 1970, to the minute), and whether they share their
/// presence (if not, others see a bucket only: ``LastSeen``).
public struct LastSeenRecord: Sendable, Hashable {
    /// When the user was last seen.
    public var at: Int64
    /// Whether the user shares their presence.
    public var sharesPresence: Bool

    /// Creates a record.
    public init(at: Int64, sharesPresence: Bool) {
        self.at = at
        self.sharesPresence = sharesPresence
    }
}

/// What the store knows of a user.
public struct StoredUser: Sendable, Hashable {
    /// The display name the user's latest token carried, if any.
    public var name: String?
    /// Whether the user is a bot.
    public var isBot: Bool
    /// Whether the server API set ``isBot``: then it holds whatever tokens say; otherwise each verified
    /// token decides it.
    public var botSetByServerAPI: Bool
    /// Whether the user shares their typing.
    public var sharesTyping: Bool
    /// Whether the user shares their presence (online or not); a user who does not is shown offline to everyone.
    public var sharesPresence: Bool
    /// What the user shows of their reading, and sees of others'.
    public var readReceipts: ReadReceiptSharing

    /// Creates a stored user.
    public init(
        name: String?, isBot: Bool, botSetByServerAPI: Bool = false, sharesTyping: Bool, sharesPresence: Bool = true,
        readReceipts: ReadReceiptSharing = .share
    ) {
        self.name = name
        self.isBot = isBot
        self.botSetByServerAPI = botSetByServerAPI
        self.sharesTyping = sharesTyping
        self.sharesPresence = sharesPresence
        self.readReceipts = readReceipts
    }

    /// Whether recording this identity would change nothing: a token without a name keeps the stored one,
    /// and a token's bot claim counts unless the server API set the flag.
    public func matches(_ identity: Identity) -> Bool {
        (identity.name == nil || identity.name == name) && (botSetByServerAPI || identity.isBot == isBot)
    }

    /// The identity a verified token names, with what the store says of the user: the stored name if the
    /// token carries none, and the bot flag the server API set, if it set one.
    public func applied(to identity: Identity) -> Identity {
        var identity = identity
        if identity.name == nil { identity.name = name }
        if botSetByServerAPI { identity.isBot = isBot }
        return identity
    }
}

extension ChatStore {
    /// Stores a message of the main timeline with no webhook deliveries
    /// (``storeMessage(conversation:sender:clientMessageId:text:sentAt:thread:webhooks:)``).
    public func storeMessage(
        conversation: String, sender: Identity, clientMessageId: String, text: String, sentAt: Int64
    ) async throws -> StoredMessage? {
        try await storeMessage(
            conversation: conversation, sender: sender, clientMessageId: clientMessageId, text: text, sentAt: sentAt, thread: nil,
            webhooks: nil)
    }

    /// A page of the main timeline's history (``messages(of:thread:before:limit:)`` without a thread).
    public func messages(of conversation: String, before: String?, limit: Int) async throws -> [ChatMessage] {
        try await messages(of: conversation, thread: nil, before: before, limit: limit)
    }

    /// ``recentMessages(of:limit:withinBytes:)`` for a store that cannot choose by size: reads the latest
    /// `limit` messages and keeps the newest that fit.
    public func recentMessages(of conversation: String, limit: Int, withinBytes bytes: Int) async throws -> [ChatMessage] {
        try await recentMessages(of: conversation, limit: limit).newest(within: bytes)
    }

    /// ``ChatStore/userRecord(of:)`` as three requests at once, for a store that has no single one.
    public func userRecord(of user: String) async throws -> UserRecord {
        async let stored = self.user(user)
        async let blocked = blockedUsers(of: user)
        async let blockers = blockers(of: user)
        return try await UserRecord(stored: stored, blocked: blocked, blockers: blockers)
    }

    /// What a socket's handshake needs of the store: what it knows of the user the token named
    /// (``userRecord(of:)``), then a write only if the token's name or role changed.
    public func handshakeRecord(of identity: Identity) async throws -> UserRecord {
        let record = try await userRecord(of: identity.userID)
        if record.stored?.matches(identity) != true { try await upsertUser(identity) }
        return record
    }

    /// How many messages of others in a timeline are past `user`'s own mark, up to `limit`.
    public func unreadCount(of user: String, in conversation: String, thread: String?, limit: Int) async throws -> Int {
        try await unreadCount(of: user, in: conversation, thread: thread, through: nil, limit: limit)
    }

    /// Records the user a token named, unless the store already has that name and role: a read, and a
    /// write only when something changed.
    /// - Returns: What the store knew of the user before (nil for a new user).
    @discardableResult
    public func recordIfChanged(_ identity: Identity) async throws -> StoredUser? {
        let stored = try await user(identity.userID)
        if stored?.matches(identity) != true { try await upsertUser(identity) }
        return stored
    }
}

/// What setting a conversation's members changed.
public struct ConversationChange: Sendable, Hashable {
    /// The conversation as stored now.
    public var conversation: Conversation
    /// Whether it did not exist before.
    public var created: Bool
    /// Members who were not participants before.
    public var joined: [String]
    /// Participants who are not members any more.
    public var left: [String]
}

/// The durable state behind the hub: users, conversations, participants, messages.
///
/// Every method may be called from any task; implementations serialise what they must.
public protocol ChatStore: Sendable {
    /// Ends the store's connections and threads; nothing may be asked of it afterwards.
    func close() async throws
    /// Records the user a token named, with the latest display name (a token without a name keeps the
    /// stored one) and its bot claim, unless the server API set the user's bot flag.
    func upsertUser(_ identity: Identity) async throws
    /// Sets a user's name and bot flag to exactly these (the server API); from then on tokens do not change
    /// the bot flag.
    func putUser(_ identity: Identity) async throws
    /// Creates the conversation with these members, or sets the title, members and stop rule of the existing
    /// one (whose creator stays), in one transaction. A conversation made here has no creator (`""`): only the
    /// server API changes who is in it.
    /// - Throws: ``MembershipRefusal/kindIsFixed(_:)`` if the conversation exists with another kind (also when
    ///   another put created it a moment before); the store's error if it cannot be written.
    func putConversation(id: String, kind: Conversation.Kind, title: String?, members: [String], stopRule: Conversation.StopRule)
        async throws -> ConversationChange
    /// Deletes a conversation with its participants and messages, in one transaction: a message whose store
    /// races the delete is either deleted with it or refused (``storeMessage(conversation:sender:clientMessageId:text:sentAt:)``),
    /// so a conversation later made under the same id starts empty.
    /// - Returns: Who was in it; empty if there was no such conversation.
    func deleteConversation(_ id: String) async throws -> [String]
    /// What the store knows of a user; nil if the user was never recorded.
    func user(_ id: String) async throws -> StoredUser?
    /// Creates a conversation with its creator and members as participants.
    func createConversation(id: String, kind: Conversation.Kind, title: String?, creator: String, members: [String]) async throws
        -> Conversation
    /// The conversation, if it exists.
    func conversation(_ id: String) async throws -> Conversation?
    /// The conversations a user is in.
    func conversations(of user: String) async throws -> [Conversation]
    /// The participants of a conversation, with their display names (offline as far as the store knows).
    func participants(of conversation: String) async throws -> [ConversationMember]
    /// Records that a user was seen at `time` (a socket of theirs connected, or their last one closed); a
    /// time earlier than the one stored changes nothing (nodes of a cluster may tell it out of order).
    func recordLastSeen(of user: String, at time: Int64) async throws
    /// When each participant of a conversation was last seen, and whether they share their presence; a
    /// participant never seen is absent.
    func lastSeen(in conversation: String) async throws -> [String: LastSeenRecord]
    /// When a user was last seen, and whether they share their presence; nil if never.
    func lastSeen(of user: String) async throws -> LastSeenRecord?
    /// Stores a message once per (conversation, sender, client message id); a retry returns the stored one.
    /// The sender's read mark in the message's timeline moves to a new message in the same transaction (they
    /// have read what they answered; the mark others see, unless they hide their reading).
    /// - Parameters:
    ///   - thread: The message it answers (a reply in that message's thread); nil for the main timeline. The
    ///     caller checks that the parent exists.
    ///   - webhooks: Webhook deliveries of a new message, written in the same transaction (a retry writes
    ///     none); nil for none.
    /// - Returns: nil, and nothing stored, if the sender is not a participant when the message would be stored
    ///   (the conversation was deleted, or they were removed, after the server let the message in).
    func storeMessage(
        conversation: String, sender: Identity, clientMessageId: String, text: String, sentAt: Int64, thread: String?,
        webhooks: MessageWebhooks?
    ) async throws -> StoredMessage?
    /// Replaces the text of a message its sender wrote.
    /// - Returns: The edited message, or nil if no such message of this sender is in the conversation.
    func editMessage(_ messageId: String, in conversation: String, by sender: String, text: String, editedAt: Int64) async throws
        -> ChatMessage?
    /// One message of a conversation, if it exists.
    func message(_ id: String, in conversation: String) async throws -> ChatMessage?
    /// The latest messages of a conversation's main timeline (no thread's replies), oldest first.
    func recentMessages(of conversation: String, limit: Int) async throws -> [ChatMessage]
    /// The latest messages of a conversation, oldest first: of the latest `limit`, the newest whose texts take
    /// at most `bytes` of UTF-8 together, and at least the newest one. The stores choose them by the texts'
    /// sizes in SQL, so the texts left out are not read into the server.
    func recentMessages(of conversation: String, limit: Int, withinBytes bytes: Int) async throws -> [ChatMessage]
    /// A page of history: up to `limit` messages older than the message `before` (all if nil), oldest first,
    /// of a thread (the replies to the message `thread`) or, with nil, of the main timeline.
    func messages(of conversation: String, thread: String?, before: String?, limit: Int) async throws -> [ChatMessage]
    /// Adds a participant to a group of fewer than `limit` participants, in one transaction; adding one twice
    /// is harmless.
    /// - Returns: Whether the user was added (false: they were in it already).
    /// - Throws: ``MembershipRefusal`` (``MembershipRefusal/full(limit:)``, ``MembershipRefusal/noConversation``,
    ///   ``MembershipRefusal/directIsForTwo``); the store's error if it cannot be written.
    @discardableResult
    func addParticipant(_ user: String, to conversation: String, limit: Int) async throws -> Bool
    /// Removes a participant.
    /// - Returns: Whether the user was a participant.
    func removeParticipant(_ user: String, from conversation: String) async throws -> Bool
    /// Moves `user`'s watermark forward to the message `messageId`, in the timeline the message is in (the
    /// main one, or its thread), at `time`; never back. The mark the others see moves with it unless the read
    /// is `privately`'s or the user hides their reading (``StoredUser/readReceipts``, read in the same
    /// transaction). One transaction.
    func markRead(
        _ messageId: String, in conversation: String, by user: String, at time: Int64, privately: Bool
    ) async throws -> ReadOutcome
    /// Moves `user`'s own mark back to before the message `messageId` (the newest message of its timeline
    /// older than it; none if it is the first), at `time`: "mark unread from here". Only their own mark,
    /// which their unread count is counted from; the mark the others see stays (they were told it was
    /// read, and it was). One transaction.
    func markUnread(from messageId: String, in conversation: String, by user: String, at time: Int64) async throws -> UnreadOutcome
    /// Moves `user`'s delivered mark forward to the message `messageId` (a device of theirs received its
    /// timeline up to it), at `time`; never back. Nothing moves for a user who hides their reading (read in
    /// the same transaction): the mark is for the others only. One transaction.
    func markDelivered(_ messageId: String, in conversation: String, by user: String, at time: Int64) async throws -> DeliveredOutcome
    /// The marks the others see of a conversation's current members in its main timeline (read and
    /// delivered), each by user id, at most `limit` members; none of members who hide their reading.
    func timelineMarks(in conversation: String, limit: Int) async throws -> TimelineMarks
    /// On a typing-only server: moves `user`'s watermark in the app message's timeline forward to it, by
    /// (``AppMessage/sentAt``, ``AppMessage/id``), at `time`; never back. The mark the others see moves with it
    /// unless the read is `privately`'s or the user hides their reading. Never ``ReadOutcome/noSuchMessage``:
    /// the server does not know the app's messages. Kept apart from ``markRead(_:in:by:at:privately:)``'s
    /// marks, so that a server switched between the modes compares no app time with a server id.
    func markAppRead(_ message: AppMessage, in conversation: String, by user: String, at time: Int64, privately: Bool) async throws
        -> ReadOutcome
    /// On a typing-only server: moves `user`'s delivered mark in the app message's timeline forward to it;
    /// nothing for a user who hides their reading. Never ``DeliveredOutcome/noSuchMessage``.
    func markAppDelivered(_ message: AppMessage, in conversation: String, by user: String, at time: Int64) async throws
        -> DeliveredOutcome
    /// On a typing-only server: ``timelineMarks(in:limit:)`` over the app's message ids.
    func appTimelineMarks(in conversation: String, limit: Int) async throws -> TimelineMarks
    /// How many members read each of a timeline's newest `messages` messages (`thread` nil: the main one):
    /// the current members, its sender aside, who share their reading and whose mark the others see is at it
    /// or past it; newest first.
    func readCounts(in conversation: String, thread: String?, messages: Int) async throws -> [ReadCount]
    /// How many messages of others in a timeline (`thread` nil: the main one) are past `user`'s own mark
    /// and no newer than the message numbered `newest` (nil: any), counted up to `limit` at most (the work is
    /// bounded: a count of `limit` means that many or more).
    func unreadCount(of user: String, in conversation: String, thread: String?, through newest: Int64?, limit: Int) async throws -> Int
    /// Whether the user shares their typing (true unless they turned it off).
    func sharesTyping(_ user: String) async throws -> Bool
    /// Turns sharing one's typing on or off.
    func setSharesTyping(_ shares: Bool, for user: String) async throws
    /// Turns sharing one's presence on or off.
    func setSharesPresence(_ shares: Bool, for user: String) async throws
    /// Sets what the user shows of their reading, and sees of others'.
    func setReadReceipts(_ sharing: ReadReceiptSharing, for user: String) async throws
    /// The users a user has blocked.
    func blockedUsers(of user: String) async throws -> Set<String>
    /// The users who have blocked a user.
    func blockers(of user: String) async throws -> Set<String>
    /// Blocks or unblocks a user. Returns false, storing nothing, for a new block when the blocker already
    /// blocks `limit` users (an unblock, or a block already stored, is always true).
    func setBlocked(_ blocked: Bool, user: String, by blocker: String, limit: Int) async throws -> Bool
    /// Whether `blocker` blocks `user`.
    func isBlocked(_ user: String, by blocker: String) async throws -> Bool
    /// What decides what a user sees and shows, read without writing: the user as stored, whom they
    /// blocked and who blocked them (a handshake reads it, and the minute's recheck of each connected user).
    func userRecord(of user: String) async throws -> UserRecord
}

/// What the store knows of a user that decides what they see and show.
public struct UserRecord: Sendable, Equatable {
    /// The user as stored; nil for a user never seen.
    public var stored: StoredUser?
    /// The users they blocked.
    public var blocked: Set<String>
    /// The users who blocked them.
    public var blockers: Set<String>

    public init(stored: StoredUser?, blocked: Set<String>, blockers: Set<String>) {
        self.stored = stored
        self.blocked = blocked
        self.blockers = blockers
    }
}

extension Array where Element == ChatMessage {
    /// The newest of these messages (oldest first) whose texts fit in `bytes` of UTF-8 together, and at least
    /// the newest one.
    func newest(within bytes: Int) -> [ChatMessage] {
        var total = 0
        let kept = reversed().prefix { message in
            total += message.text.utf8.count
            return total <= bytes
        }
        return suffix(Swift.max(kept.count, Swift.min(1, count)))
    }
}
