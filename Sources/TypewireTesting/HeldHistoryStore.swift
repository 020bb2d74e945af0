import NIOConcurrencyHelpers
import TypewireCore
import TypewireServer

/// A store whose history reads are held: `recentMessages` reads the real store, says so, then returns that
/// (by then old) answer only once the test lets it go. Everything else goes straight to the real store.
/// It puts a write between a subscription's history read and its end, a race a loaded machine hits by chance.
/// With `holdingParticipants`, reads of a conversation's participants are held the same way instead; with
/// `holdingUnreadCounts`, a subscription's unread count (one read through a newest message).
public final class HeldHistoryStore: ChatStore {
    private let store: any ChatStore
    private let holdsParticipants: Bool
    private let holdsUnreadCounts: Bool
    private let (reads, readsContinuation) = AsyncStream.makeStream(of: Void.self)
    private let (gate, gateContinuation) = AsyncStream.makeStream(of: Void.self)
    private let historyReadCount = NIOLockedValueBox(0)
    private let participantReadCount = NIOLockedValueBox(0)

    /// How many history reads reached the store so far.
    public var historyReads: Int { historyReadCount.withLockedValue { $0 } }
    /// How many reads of a conversation's participants reached the store so far.
    public var participantReads: Int { participantReadCount.withLockedValue { $0 } }

    public init(_ store: any ChatStore, holdingParticipants: Bool = false, holdingUnreadCounts: Bool = false) {
        self.store = store
        self.holdsParticipants = holdingParticipants
        self.holdsUnreadCounts = holdingUnreadCounts
    }

    /// Closes the store it holds reads of.
    public func close() async throws {
        try await store.close()
    }

    /// Returns once a history read has read the store and waits.
    public func historyRead() async {
        for await _ in reads { return }
    }

    /// Lets the waiting history read answer.
    public func release() {
        gateContinuation.yield()
    }

    /// Runs `reading`, which makes one held read, and `meanwhile` while that read waits; returns once
    /// `reading` has.
    public func run(
        _ reading: @escaping @Sendable () async -> Void, holdingItsReadWhile meanwhile: () async throws -> Void
    ) async rethrows {
        let task = Task { await reading() }
        await historyRead()
        do {
            try await meanwhile()
        } catch {
            release()
            await task.value
            throw error
        }
        release()
        await task.value
    }

    public func recentMessages(of conversation: String, limit: Int) async throws -> [ChatMessage] {
        let messages = try await store.recentMessages(of: conversation, limit: limit)
        historyReadCount.withLockedValue { $0 += 1 }
        if !holdsParticipants && !holdsUnreadCounts { await hold() }
        return messages
    }

    /// Says a read was made, then waits for the test to let it go.
    private func hold() async {
        readsContinuation.yield()
        for await _ in gate { break }
    }

    public func upsertUser(_ identity: Identity) async throws { try await store.upsertUser(identity) }
    public func putUser(_ identity: Identity) async throws { try await store.putUser(identity) }
    public func putConversation(id: String, kind: Conversation.Kind, title: String?, members: [String], stopRule: Conversation.StopRule)
        async throws -> ConversationChange
    {
        try await store.putConversation(id: id, kind: kind, title: title, members: members, stopRule: stopRule)
    }
    public func deleteConversation(_ id: String) async throws -> [String] { try await store.deleteConversation(id) }
    public func user(_ id: String) async throws -> StoredUser? { try await store.user(id) }
    public func createConversation(id: String, kind: Conversation.Kind, title: String?, creator: String, members: [String]) async throws
        -> Conversation
    {
        try await store.createConversation(id: id, kind: kind, title: title, creator: creator, members: members)
    }
    public func conversation(_ id: String) async throws -> Conversation? { try await store.conversation(id) }
    public func conversations(of user: String) async throws -> [Conversation] { try await store.conversations(of: user) }
    public func participants(of conversation: String) async throws -> [ConversationMember] {
        let participants = try await store.participants(of: conversation)
        participantReadCount.withLockedValue { $0 += 1 }
        if holdsParticipants { await hold() }
        return participants
    }
    public func storeMessage(
        conversation: String, sender: Identity, clientMessageId: String, text: String, sentAt: Int64, thread: String?,
        webhooks: MessageWebhooks?
    ) async throws -> StoredMessage? {
        try await store.storeMessage(
            conversation: conversation, sender: sender, clientMessageId: clientMessageId, text: text, sentAt: sentAt, thread: thread,
            webhooks: webhooks)
    }
    public func editMessage(_ messageId: String, in conversation: String, by sender: String, text: String, editedAt: Int64) async throws
        -> ChatMessage?
    {
        try await store.editMessage(messageId, in: conversation, by: sender, text: text, editedAt: editedAt)
    }
    public func message(_ id: String, in conversation: String) async throws -> ChatMessage? {
        try await store.message(id, in: conversation)
    }
    public func messages(of conversation: String, thread: String?, before: String?, limit: Int) async throws -> [ChatMessage] {
        try await store.messages(of: conversation, thread: thread, before: before, limit: limit)
    }
    public func addParticipant(_ user: String, to conversation: String, limit: Int) async throws -> Bool {
        try await store.addParticipant(user, to: conversation, limit: limit)
    }
    public func removeParticipant(_ user: String, from conversation: String) async throws -> Bool {
        try await store.removeParticipant(user, from: conversation)
    }
    public func markRead(
        _ messageId: String, in conversation: String, by user: String, at time: Int64, privately: Bool
    ) async throws -> ReadOutcome {
        try await store.markRead(messageId, in: conversation, by: user, at: time, privately: privately)
    }
    public func markUnread(from messageId: String, in conversation: String, by user: String, at time: Int64) async throws
        -> UnreadOutcome
    {
        try await store.markUnread(from: messageId, in: conversation, by: user, at: time)
    }
    public func markDelivered(_ messageId: String, in conversation: String, by user: String, at time: Int64) async throws
        -> DeliveredOutcome
    {
        try await store.markDelivered(messageId, in: conversation, by: user, at: time)
    }
    public func timelineMarks(in conversation: String, limit: Int) async throws -> TimelineMarks {
        try await store.timelineMarks(in: conversation, limit: limit)
    }
    public func markAppRead(_ message: AppMessage, in conversation: String, by user: String, at time: Int64, privately: Bool)
        async throws -> ReadOutcome
    {
        try await store.markAppRead(message, in: conversation, by: user, at: time, privately: privately)
    }
    public func markAppDelivered(_ message: AppMessage, in conversation: String, by user: String, at time: Int64) async throws
        -> DeliveredOutcome
    {
        try await store.markAppDelivered(message, in: conversation, by: user, at: time)
    }
    public func appTimelineMarks(in conversation: String, limit: Int) async throws -> TimelineMarks {
        try await store.appTimelineMarks(in: conversation, limit: limit)
    }
    public func readCounts(in conversation: String, thread: String?, messages: Int) async throws -> [ReadCount] {
        try await store.readCounts(in: conversation, thread: thread, messages: messages)
    }
    public func unreadCount(of user: String, in conversation: String, thread: String?, through newest: Int64?, limit: Int) async throws
        -> Int
    {
        let count = try await store.unreadCount(of: user, in: conversation, thread: thread, through: newest, limit: limit)
        if holdsUnreadCounts, newest != nil { await hold() }
        return count
    }
    public func sharesTyping(_ user: String) async throws -> Bool { try await store.sharesTyping(user) }
    public func setSharesTyping(_ shares: Bool, for user: String) async throws { try await store.setSharesTyping(shares, for: user) }
    public func blockedUsers(of user: String) async throws -> Set<String> { try await store.blockedUsers(of: user) }
    public func blockers(of user: String) async throws -> Set<String> { try await store.blockers(of: user) }
    public func isBlocked(_ user: String, by blocker: String) async throws -> Bool { try await store.isBlocked(user, by: blocker) }
    public func userRecord(of user: String) async throws -> UserRecord { try await store.userRecord(of: user) }
    public func setReadReceipts(_ sharing: ReadReceiptSharing, for user: String) async throws {
        try await store.setReadReceipts(sharing, for: user)
    }
    public func setSharesPresence(_ shares: Bool, for user: String) async throws { try await store.setSharesPresence(shares, for: user) }
    public func recordLastSeen(of user: String, at time: Int64) async throws { try await store.recordLastSeen(of: user, at: time) }
    public func lastSeen(in conversation: String) async throws -> [String: LastSeenRecord] { try await store.lastSeen(in: conversation) }
    public func lastSeen(of user: String) async throws -> LastSeenRecord? { try await store.lastSeen(of: user) }
    public func setBlocked(_ blocked: Bool, user: String, by blocker: String, limit: Int) async throws -> Bool {
        try await store.setBlocked(blocked, user: user, by: blocker, limit: limit)
    }
}
