import Foundation
import TypewireCore

/// One open conversation: its typing state, messages, presence and bot replies as async sequences;
/// sending, editing, a composer for the text field, and a bot's replies.
///
/// A handle shows one timeline: the conversation's main one, or the thread of one of its messages
/// (``thread(_:)``, a handle of its own with the same sequences and calls, each about the thread: who
/// types in it, its replies, a send that replies in it). The main timeline's handle leaves replies out;
/// its ``TypingState/replying`` counts who writes in each thread, for the parent message to show
/// ("2 people are replying…").
///
/// Each sequence has one consumer; open another handle for another screen. Call ``close()`` when the
/// screen goes away (a handle released without it closes itself): its composers and sequences end, and
/// with the last handle the subscription and its timers. If the user is removed from the conversation (or it does not exist), the handle ends the same
/// way by itself.
public final class ConversationHandle: Sendable {
    /// The conversation's id.
    public let id: String
    /// The thread the handle shows (the parent message's id); nil for the conversation's main timeline.
    public let thread: String?
    /// Who is active (in the handle's timeline), ready to show; starts with ``TypingState/idle`` and changes only when the text or
    /// the typers change. Entries still expire on time while the connection is down.
    public let typing: AsyncStream<TypingState>
    /// New and edited messages of the handle's timeline, each once (including those that arrived while
    /// disconnected): the main timeline's handle gets the conversation's recent messages when it
    /// subscribes, a thread's handle the thread's recent replies (fetched from the server's REST route
    /// beside the socket, `GET /v1/conversations/:id/messages?thread=`, with the socket's token).
    public let messages: AsyncStream<ChatMessage>
    /// Members coming online and going offline (an offline one with when they were last seen, if shown);
    /// after each `subscribed` (the first, and again after a reconnect), the members online then, as coming
    /// online, and those it told online who are not, as going offline (they left while the client was away).
    /// None in a large group; ``members`` has everyone's last seen.
    public let presence: AsyncStream<ServerFrame.Presence>
    /// The conversation's members, with their names, at each `subscribed` (the first, and again after a
    /// reconnect): for names beside ids (``/TypewireCore/ReadState/readers(of:sentBy:position:)``, a header).
    public let members: AsyncStream<[ConversationMember]>
    /// Parts of bots' replies (in the handle's timeline) as they stream in; the finished reply then arrives in ``messages`` with
    /// `clientMessageId` `stream-<messageId>` (show it in place of the streamed text).
    public let replies: AsyncStream<ServerFrame.StreamDelta>
    /// The handle's timeline's read state: the server's snapshot once subscribed (or at once, what another
    /// open handle of the timeline knows), then every change. The user's
    /// unread count, the same on every device of theirs (the server counts; messages of others that arrive
    /// add to it until the server's next word), their own mark, and how far the others have read, for
    /// "Seen by" (``/TypewireCore/ReadState/readers(of:sentBy:position:)``). A thread's handle starts with nothing unread
    /// and counts the replies that arrive. Empty on a typing-only server.
    public let readState: AsyncStream<ReadState>
    /// Tells this handle from others open on the same conversation.
    let view: Int
    private let client: TypewireClient
    let lane: AsyncStream<ConversationStep>.Continuation

    init(
        id: String, thread: String?, view: Int, client: TypewireClient, lane: AsyncStream<ConversationStep>.Continuation,
        typing: AsyncStream<TypingState>,
        messages: AsyncStream<ChatMessage>, presence: AsyncStream<ServerFrame.Presence>, replies: AsyncStream<ServerFrame.StreamDelta>,
        members: AsyncStream<[ConversationMember]>, readState: AsyncStream<ReadState>
    ) {
        self.id = id
        self.thread = thread
        self.view = view
        self.client = client
        self.lane = lane
        self.typing = typing
        self.messages = messages
        self.presence = presence
        self.replies = replies
        self.readState = readState
        self.members = members
    }

    /// A handle released without ``close()`` closes itself: nothing it started outlives it.
    deinit {
        let (client, id, view) = (client, id, view)
        Task { await client.close(id, view: view) }
    }

    /// Sends a message (in a thread's handle: a reply in the thread) and returns the server's id for it
    /// once stored. The server clears the sender's typing (in that timeline) before the message goes out. The message leaves after every typing frame this
    /// conversation's composers made before the call (one ordered lane per conversation). If the
    /// connection drops, the message is sent again after the reconnect; the server stores it once.
    /// - Throws: ``TypewireClientError`` if the server refuses it (too long, not a participant),
    ///   ``/TypewireCore/ErrorCode/messagesDisabled`` at once on a typing-only server, or ``TypewireClientError/Reason/closed`` if the handle was
    ///   closed before the call.
    @discardableResult
    public func send(_ text: String) async throws -> String {
        try await lane.send(text, in: id)
    }

    /// Replaces the text of one of the user's own messages; returns the edited message once the server
    /// has sent it to the conversation. Retried across reconnects until done.
    /// - Throws: ``TypewireClientError``: ``/TypewireCore/ErrorCode/forbidden`` for someone else's message,
    ///   ``/TypewireCore/ErrorCode/tooLarge``, or ``TypewireClientError/Reason/closed`` if the handle closes first.
    @discardableResult
    public func edit(_ messageId: String, text: String) async throws -> ChatMessage {
        try await client.edit(messageId, in: id, text: text)
    }

    /// A composer for this conversation's text field. It uses the intervals the server announced
    /// (or the defaults before the first connection) unless given others.
    public func composer(configuration: TypingEmitter<ContinuousClock.Instant>.Configuration? = nil) async -> Composer {
        await client.makeComposer(for: self, configuration: configuration)
    }

    /// Begins a bot's reply here (the bot shows as thinking at once; in a thread's handle, the reply
    /// answers in the thread); see ``BotReply``.
    /// - Parameters:
    ///   - messageId: The reply's id, unique per reply.
    ///   - asker: The member the reply answers (the sender of the question): only they, and the bot, may
    ///     stop it. Nil: any member may.
    /// - Throws: ``TypewireClientError`` if the handle is closed or the id is in use.
    public func beginReply(messageId: String = UUID().uuidString.lowercased(), answering asker: String? = nil) async throws -> BotReply {
        try await client.beginReply(messageId, answering: asker, in: self)
    }

    /// Asks the bot streaming the reply `messageId` here to stop (the `stream` parts' `messageId`): the
    /// bot is told at once, and if it does not end the reply within the server's grace (2 s by default),
    /// the server ends it for everyone. Every member sees the end as a final part with
    /// ``/TypewireCore/ReplyEnd/cancelled``. A reply that answers another member may be stopped only by them; such a
    /// refusal, or a reply that already ended, is answered with an error the client logs.
    public func stopReply(_ messageId: String) async {
        _ = await client.transmit(.cancel(.init(conversation: id, messageId: messageId)))
    }

    /// Tells the server that the user has seen this timeline up to a message: their unread count (on every
    /// device) drops to the messages of others after it, and the other members see the mark in their
    /// ``readState`` (unless `isPrivate`). Report the newest message that was on screen while the app was
    /// active, not an older one: the server moves a mark forward only, and reports made within a second are
    /// merged into the last one. A report made offline goes when the connection is back; one waiting when
    /// the handle closes goes at once. On a typing-only server (the app keeps its messages, as on the
    /// Firebase path) name the app's own message and give `sentAt`: the server keeps the marks over the
    /// app's ids and tells the members, and unread counts stay the app's; without `sentAt` nothing is sent
    /// there.
    /// - Parameters:
    ///   - messageId: The server's id of the newest message seen (on a typing-only server, the app's own).
    ///   - sentAt: On a typing-only server, when the app says the message was sent, in milliseconds since
    ///     1970: what orders the app's ids. A server that keeps messages does not need it.
    ///   - isPrivate: Clear the user's own count and tell nobody else.
    public func markRead(_ messageId: String, sentAt: Int64? = nil, isPrivate: Bool = false) async {
        await client.markRead(.init(messageId: messageId, isPrivate: isPrivate, sentAt: sentAt), in: Timeline(id, thread: thread))
    }

    /// On a typing-only server: one of the app's own messages, of another member, reached this device (the
    /// app's listener got it), so the sender sees it delivered (at most one `delivered` a second; a later one
    /// covers an earlier). A server that keeps messages needs no call: the client reports its messages
    /// itself, and this does nothing there.
    /// - Parameters:
    ///   - messageId: The app's id of the newest message of others received here.
    ///   - sentAt: When the app says it was sent, in milliseconds since 1970.
    public func markDelivered(_ messageId: String, sentAt: Int64) async {
        await client.receivedAppMessage(messageId, sentAt: sentAt, in: Timeline(id, thread: thread))
    }

    /// Marks this timeline unread from a message on ("Mark as unread"): the user's own mark moves back to
    /// the message before it, and their unread count (on every device, in ``readState``) counts the messages
    /// of others from it on. The one way a mark moves back; the other members are not told (they saw it
    /// read, and it was). It goes through the same reporter as ``markRead(_:sentAt:isPrivate:)``: a read reported
    /// after it replaces it if the second between two reports has not passed. Nothing on a typing-only
    /// server.
    /// - Parameter messageId: The server's id of the first message to show unread.
    public func markUnread(from messageId: String) async {
        await client.markRead(.init(messageId: messageId, marksUnread: true), in: Timeline(id, thread: thread))
    }

    /// Sets the current user's activity here directly, e.g. `.recordingAudio` or `.uploading`; for typing,
    /// use a ``Composer``.
    public func setActivity(_ activity: MemberActivity) async {
        lane.yield(.activity(activity))
    }

    /// Whether the server did not know the conversation when the client last asked, and the client asks
    /// again (for ``TypewireClient/Configuration/conversationWait``): an app shows "waiting for the
    /// conversation" rather than an empty chat.
    public var isWaitingForConversation: Bool {
        get async { await client.isWaitingFor(id) }
    }

    /// Why the server ended this conversation's handles (their sequences finished): the user is not in it,
    /// or it never came to exist within ``TypewireClient/Configuration/conversationWait``. Nil while it is
    /// open, or if the app closed it.
    public var endReason: TypewireClientError? {
        get async { await client.endReason(of: id) }
    }

    /// A handle of the thread of one of this conversation's messages: who types in the thread, its
    /// replies, sends that reply in it, and composers whose typing shows in the thread only. Close it as
    /// any handle; it keeps the conversation subscribed while it is open, even after this one closes.
    /// - Parameter parentID: The id of a message of the main timeline (threads are one level deep: a
    ///   reply's thread is its parent's). Sends to a parent that is not one fail with
    ///   ``/TypewireCore/ErrorCode/invalidField``.
    public func thread(_ parentID: String) async -> ConversationHandle {
        await client.conversation(id, thread: parentID)
    }

    /// Ends this handle's sequences and composers. The last handle of a thread to close stops the user's
    /// activity in it; the last handle of a conversation to close also stops the user's activity there,
    /// unsubscribes and ends the bot replies.
    public func close() async {
        await client.close(id, view: view)
    }
}
