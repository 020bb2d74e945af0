import Observation
import TypewireClient
import TypewireCore

/// The user's conversations as a list screen shows them: each one's last message, unread count and who
/// is online, newest first. No typing here: a list that flickers "is typing" in every row helps no one.
///
/// Unread counts are the server's (``/TypewireClient/ConversationHandle/readState``): the same on every device of the
/// user, whatever screen read the messages, and never counted again when the list comes back.
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
        /// Messages from others past what the user read, on any device: the server's count, at most
        /// ``/TypewireCore/WireProtocol/maxUnreadCount`` (show "999+" at it).
        public var unreadCount: Int
        /// The members online now, as far as the client knows: none while it is not connected.
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
    @ObservationIgnored private var handles: [ConversationHandle] = []
    @ObservationIgnored private var listening: Task<Void, Never>?
    /// What the calls so far ask for (each appear counts, as a ``ConversationModel``'s do).
    @ObservationIgnored private var lifecycle = ScreenLifecycle()
    /// Where opening and closing run, one after another.
    @ObservationIgnored private let lane = ChangeLane()
    /// The user, once a message came (the client's first welcome names them).
    @ObservationIgnored private var userID: String?
    /// Each conversation's newest message of another member, as it reached the list: where "Mark as
    /// Unread" marks from.
    @ObservationIgnored private var newestFromOthers: [String: String] = [:]

    /// A list of the app's conversations.
    /// - Parameters:
    ///   - client: The app's client (which runs elsewhere: `Task { try await client.run() }`).
    ///   - conversations: Their ids and titles.
    public init(client: TypewireClient, conversations: [(id: String, title: String)]) {
        self.client = client
        rows = conversations.map { Row(id: $0.id, title: $0.title) }
    }

    /// A list that shows fixed rows and connects to nothing: for SwiftUI previews.
    public init(previewRows: [Row]) {
        client = nil
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
        let connection = await client.states()
        listening = Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await state in connection { await self?.show(state) } }
                for handle in handles {
                    // Who the user is comes with the client's first welcome, which a message follows: asked
                    // then, not when the list appeared (on a cold start it is not known yet).
                    group.addTask { for await message in handle.messages { await self?.receive(message) } }
                    group.addTask { for await change in handle.presence { await self?.show(change) } }
                    group.addTask { for await state in handle.readState { await self?.show(state, of: handle.id) } }
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

    /// Marks a conversation read up to its newest message (a "Mark as Read" action on the row): the
    /// server's count, on every device, follows within a second. Nothing while the list is not open.
    public func markRead(_ conversationID: String) async {
        guard let messageID = rows.first(where: { $0.id == conversationID })?.lastMessage?.id,
            let handle = handles.first(where: { $0.id == conversationID })
        else { return }
        await handle.markRead(messageID)
    }

    /// Marks a conversation unread from its newest message of another member ("Mark as Unread" on the
    /// row): the user's mark moves back before it, and the server's count, on every device, follows within a
    /// second; the others are not told. Nothing while the list is not open, or before a message of another
    /// member reached it.
    public func markUnread(_ conversationID: String) async {
        guard let messageID = newestFromOthers[conversationID], let handle = handles.first(where: { $0.id == conversationID })
        else { return }
        await handle.markUnread(from: messageID)
    }

    private func receive(_ message: ChatMessage) async {
        if userID == nil, let client { userID = await client.userID }
        guard let index = rows.firstIndex(where: { $0.id == message.conversation }) else { return }
        if message.editedAt == nil, message.thread == nil, message.sender != userID {
            newestFromOthers[message.conversation] = message.id
        }
        if message.editedAt != nil {
            if rows[index].lastMessage?.id == message.id { rows[index].lastMessage = message }
            return
        }
        if message.sentAt >= rows[index].lastMessage?.sentAt ?? .min { rows[index].lastMessage = message }
        rows.sort { ($0.lastMessage?.sentAt ?? .min) > ($1.lastMessage?.sentAt ?? .min) }
    }

    private func show(_ state: ReadState, of conversationID: String) {
        guard let index = rows.firstIndex(where: { $0.id == conversationID }), rows[index].unreadCount != state.unreadCount else { return }
        rows[index].unreadCount = state.unreadCount
    }

    /// Away from the server, nobody is known to be online: each conversation's next `subscribed` says who is.
    private func show(_ state: ConnectionState) {
        guard state != .connected else { return }
        for index in rows.indices where !rows[index].onlineMembers.isEmpty { rows[index].onlineMembers = [] }
    }

    private func show(_ change: ServerFrame.Presence) {
        guard let index = rows.firstIndex(where: { $0.id == change.conversation }) else { return }
        if change.online { rows[index].onlineMembers.insert(change.user) } else { rows[index].onlineMembers.remove(change.user) }
    }
}
