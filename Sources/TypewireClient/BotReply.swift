import TypewireCore

/// A bot's reply being written, as others see it: "Clawd is thinking…", "Clawd is using web_search…",
/// then the reply streaming in, then the stored message.
///
/// Begin one with ``ConversationHandle/beginReply(messageId:)`` (the bot shows as thinking at once),
/// then ``useTool(_:)`` and ``think()`` as work goes on, ``write(_:)`` each part of the text, and
/// ``finish(_:)`` to store the whole reply (or ``fail()``). The state follows ``BotActivity``: an input
/// that makes no sense (thinking in the middle of the text) throws ``BotActivityError``.
///
/// The client keeps the bot's activity alive while the reply is under way, coalesces parts written
/// faster than ``TypewireClient/Configuration/streamInterval``, and gives the reply up (clearing the
/// activity) after ``BotActivity/Configuration``'s timeouts without news. If the connection drops in
/// the middle, or the server refuses a part, the reply is still stored whole: the final part carries the
/// full text (after a reconnect it goes as one message), retried until acknowledged, and stored once.
///
/// Only a bot may stream (a token with `role: "bot"`); a person's token gets ``ErrorCode/forbidden``.
public final class BotReply: Sendable {
    /// The reply's id, unique per reply; the stored message carries `clientMessageId` `stream-<messageId>`.
    public let messageId: String
    private let client: TypewireClient
    /// The conversation's handle, kept open while the reply is held (a released handle closes itself).
    private let handle: ConversationHandle

    init(messageId: String, client: TypewireClient, handle: ConversationHandle) {
        self.messageId = messageId
        self.client = client
        self.handle = handle
    }

    /// Goes back to thinking (after a tool).
    public func think() async throws {
        try await client.advanceReply(messageId, .startThinking)
    }

    /// Shows that the bot runs a tool; the name appears in the indicator ("Clawd is using web_search…").
    public func useTool(_ name: String? = nil) async throws {
        try await client.advanceReply(messageId, .useTool(name))
    }

    /// Appends a part of the reply's text; the first part ends thinking.
    public func write(_ text: String) async throws {
        try await client.writeReply(messageId, text)
    }

    /// Appends the last part and stores the whole reply as a message. On a typing-only server
    /// (``TypewireClient/storesMessages`` false) the last part ends the reply for the members and nothing
    /// is stored: store the text in the app's own database.
    /// - Returns: The stored message's id (on a typing-only server, the reply's ``messageId``).
    @discardableResult
    public func finish(_ text: String = "") async throws -> String {
        try await client.finishReply(messageId, text)
    }

    /// Gives the reply up: the bot's activity is cleared and nothing is stored.
    public func fail() async {
        await client.failReply(messageId)
    }
}
