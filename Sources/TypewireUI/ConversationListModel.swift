import Observation
import TypewireClient
import TypewireCore

/// The user's conversations as a list screen shows them: each one's last message, unread count and who
/// is online, newest first. No typing here: a list that flickers "is typing" in every row helps no one.
///
/// The conversations are the app's own (its ids and titles, e.g. from its backend); the model follows
/// each through a handle of its own while the list is on screen, beside any ``ConversationModel``.
@MainActor @Observable
public final class ConversationListModel {
    /// One row of the list.
    public struct Row: Identifiable, Hashable, Sendable {
        /// The conversation's id.
        public let id: String
        /// Its title, as the app names it.
        public var title: String
        /// The newest message, if any.
        public var lastMessage: ChatMessage?
        /// Messages from others newer than what the user read.
        public var unreadCount: Int
        /// The members online now.
        public var onlineMembers: Set<String>

        /// Creates a row (for previews).
        public init(id: String, title: String, lastMessage: ChatMessage? = nil, unreadCount: Int = 0, onlineMembers: Set<String> = []) {
            self.id = id
            self.title = title
            self.lastMessage = lastMessage
            self.unreadCount = unreadCount
            self.onlineMembers = onlineMembers
        }
    }

    /// The rows, the conversation with the newest message first.
    public private(set) var rows: [Row]
    /// Whether the list follows its conversations (between ``appear()`` and ``disappear()``).
    public private(set) var isOpen = false

    @ObservationIgnored private let client: TypewireClient?
    @ObservationIgnored private var readUpTo: [String: Int64]
    /// The ids of each conversation's unread messages, so that a message delivered again (every appear
    /// re-delivers the recent ones) counts once; at most ``maxUnreadIDs`` per conversation.
    @ObservationIgnored private var unreadIDs: [String: Set<String>] = [:]
    /// The most unread messages a row counts (and ids it keeps).
    public static let maxUnreadIDs = 999
    @ObservationIgnored private var handles: [ConversationHandle] = []
    @ObservationIgnored private var listening: Task<Void, Never>?
    /// What the calls so far ask for (each appear counts, as a ``ConversationModel``'s do).
    @ObservationIgnored private var lifecycle = ScreenLifecycle()
    /// Where opening and closing run, one after another.
    @ObservationIgnored private let lane = ChangeLane()

    /// A list of the app's conversations.
    /// - Parameters:
    ///   - conversations: Their ids and titles.
    ///   - readUpTo: For each, the `sentAt` of the newest message the user has read (server milliseconds);
    ///     newer messages from others count as unread.
    public init(client: TypewireClient, conversations: [(id: String, title: String)], readUpTo: [String: Int64] = [:]) {
        self.client = client
        self.readUpTo = readUpTo
        rows = conversations.map { Row(id: $0.id, title: $0.title) }
    }

    /// A list that shows fixed rows and connects to nothing: for SwiftUI previews.
    public init(previewRows: [Row]) {
        client = nil
        readUpTo = [:]
        rows = previewRows
    }

    /// A list released while open ends what it started: its listening and its handles (each ends its
    /// subscription unless another handle follows the conversation).
    deinit {
        listening?.cancel()
        for handle in handles { Task { await handle.close() } }
    }

    /// The list shows: follow every conversation's messages and presence. Each appear counts: a list shown
    /// twice follows until both called ``disappear()``. The calls may overlap; opening and closing never do.
    public func appear() async {
        lifecycle.appearances += 1
        await lane.run { [weak self] in await self?.follow() }
    }

    /// The list went away; once every appear has its disappear, every subscription it holds ends (a
    /// conversation on screen keeps its own).
    public func disappear() async {
        lifecycle.appearances = max(0, lifecycle.appearances - 1)
        await lane.run { [weak self] in await self?.follow() }
    }

    /// Opens or closes until the list is as the calls ask (they may change while it waits).
    private func follow() async {
        while let client, lifecycle.wantsOpen != isOpen {
            if lifecycle.wantsOpen { await open(client) } else { await close() }
        }
    }

    private func open(_ client: TypewireClient) async {
        for row in rows { handles.append(await client.conversation(row.id)) }
        isOpen = true
        let handles = handles
        listening = Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                for handle in handles {
                    // Who the user is comes with the client's first welcome, which a message follows: asked
                    // then, not when the list appeared (on a cold start it is not known yet).
                    group.addTask {
                        for await message in handle.messages { await self?.receive(message, userID: await client.userID) }
                    }
                    group.addTask { for await change in handle.presence { await self?.show(change) } }
                }
            }
        }
    }

    private func close() async {
        isOpen = false
        listening?.cancel()
        listening = nil
        let closing = handles
        handles = []
        for handle in closing { await handle.close() }
        for index in rows.indices { rows[index].onlineMembers = [] }
    }

    /// The user read the conversation up to its newest message.
    public func markRead(_ conversationID: String) {
        guard let index = rows.firstIndex(where: { $0.id == conversationID }) else { return }
        rows[index].unreadCount = 0
        unreadIDs[conversationID] = nil
        if let sentAt = rows[index].lastMessage?.sentAt { readUpTo[conversationID] = sentAt }
    }

    private func receive(_ message: ChatMessage, userID: String?) {
        guard let index = rows.firstIndex(where: { $0.id == message.conversation }) else { return }
        if message.editedAt != nil {
            if rows[index].lastMessage?.id == message.id { rows[index].lastMessage = message }
            return
        }
        if message.sentAt >= rows[index].lastMessage?.sentAt ?? .min { rows[index].lastMessage = message }
        if message.sender != userID, message.sentAt > readUpTo[message.conversation] ?? .min,
            unreadIDs[message.conversation, default: []].count < Self.maxUnreadIDs
        {
            unreadIDs[message.conversation, default: []].insert(message.id)
            rows[index].unreadCount = unreadIDs[message.conversation]!.count
        }
        rows.sort { ($0.lastMessage?.sentAt ?? .min) > ($1.lastMessage?.sentAt ?? .min) }
    }

    private func show(_ change: ServerFrame.Presence) {
        guard let index = rows.firstIndex(where: { $0.id == change.conversation }) else { return }
        if change.online { rows[index].onlineMembers.insert(change.user) } else { rows[index].onlineMembers.remove(change.user) }
    }
}
