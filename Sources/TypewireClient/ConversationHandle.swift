import TypewireCore

/// One open conversation: its typing state, messages and presence as async sequences, and sending.
///
/// Each sequence has one consumer. Call ``close()`` when the screen goes away: the subscription, its
/// timer and its sequences end.
public final class ConversationHandle: Sendable {
    /// The conversation's id.
    public let id: String
    /// Who is active, ready to show; starts with ``TypingState/idle`` and changes only when the text or
    /// the typers change. Entries still expire on time while the connection is down.
    public let typing: AsyncStream<TypingState>
    /// New and edited messages, each once (including those that arrived while disconnected).
    public let messages: AsyncStream<ChatMessage>
    /// Members coming online and going offline.
    public let presence: AsyncStream<ServerFrame.Presence>
    private let client: TypewireClient

    init(
        id: String, client: TypewireClient, typing: AsyncStream<TypingState>, messages: AsyncStream<ChatMessage>,
        presence: AsyncStream<ServerFrame.Presence>
    ) {
        self.id = id
        self.client = client
        self.typing = typing
        self.messages = messages
        self.presence = presence
    }

    /// Sends a message and returns the server's id for it once stored. The server clears the sender's
    /// typing before the message goes out. If the connection drops, the message is sent again after the
    /// reconnect; the server stores it once.
    @discardableResult
    public func send(_ text: String) async throws -> String {
        try await client.send(text, in: id)
    }

    /// Sets the current user's activity here (a composer or a bot calls it; see `Composer`).
    public func setActivity(_ activity: Activity) async {
        await client.setActivity(activity, in: id)
    }

    /// Unsubscribes and ends the sequences.
    public func close() async {
        await client.close(id)
    }
}
