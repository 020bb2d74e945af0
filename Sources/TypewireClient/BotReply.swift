import TypewireCore

/// A bot's reply being written, as others see it: "Clawd is thinking…", "Clawd is using web_search…",
/// then the reply streaming in, then the stored message.
///
/// Begin one with ``ConversationHandle/beginReply(messageId:answering:)`` (the bot shows as thinking at
/// once), then ``useTool(_:)`` and ``think()`` as work goes on, ``write(_:)`` each part of the text, and
/// ``finish(_:end:)`` to store the whole reply (or ``fail(reason:)``). The state follows ``/TypewireCore/BotActivity``: an input
/// that makes no sense (thinking in the middle of the text) throws ``/TypewireCore/BotActivityError``.
///
/// The client keeps the bot's activity alive while the reply is under way, coalesces parts written
/// faster than ``TypewireClient/Configuration/streamInterval``, and gives the reply up (clearing the
/// activity) after ``/TypewireCore/BotActivity/Configuration``'s timeouts without news. If the connection drops in
/// the middle, or the server refuses a part, the reply is still stored whole: the final part carries the
/// full text (after a reconnect it goes as one message), retried until acknowledged, and stored once.
///
/// A member may stop the reply (the one it answers, if ``ConversationHandle/beginReply(messageId:answering:)``
/// named them): ``cancellations`` says so at once. Stop generating, and end the reply with
/// `finish(_:end: .cancelled)` (what was written so far is stored) within the server's grace (2 s by
/// default); past it the server ends the reply for everyone and refuses its further parts
/// (``/TypewireCore/ErrorCode/turnEnded``, thrown by the next call).
///
/// ```swift
/// let reply = try await conversation.beginReply(answering: question.sender)
/// let generation = Task { for try await token in model.stream(question.text) { try await reply.write(token) } }
/// Task { for await _ in reply.cancellations { generation.cancel() } }
/// if (try? await generation.value) == nil, Task.isCancelled == false { try await reply.finish(end: .cancelled) }
/// else { try await reply.finish() }
/// ```
///
/// Only a bot may stream (a token with `role: "bot"`); a person's token gets ``/TypewireCore/ErrorCode/forbidden``.
public final class BotReply: Sendable {
    /// The reply's id, unique per reply; the stored message carries `clientMessageId` `stream-<messageId>`.
    public let messageId: String
    /// The members who ask to stop the reply, as they ask (the first is what matters; later ones are
    /// dropped while one waits unread). Ends when the reply ends.
    public let cancellations: AsyncStream<String>
    private let client: TypewireClient
    /// The conversation's handle, kept open while the reply is held (a released handle closes itself).
    private let handle: ConversationHandle

    init(messageId: String, client: TypewireClient, handle: ConversationHandle, cancellations: AsyncStream<String>) {
        self.messageId = messageId
        self.client = client
        self.handle = handle
        self.cancellations = cancellations
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
    /// - Parameters:
    ///   - text: The last part.
    ///   - end: ``/TypewireCore/ReplyEnd/finished`` (the default), or ``/TypewireCore/ReplyEnd/cancelled`` after a stop: the members see
    ///     it stopped, and the text so far is stored if there is any. For a failure, use ``fail(reason:)``.
    /// - Returns: The stored message's id (on a typing-only server, or a stop before any text, the reply's
    ///   ``messageId``).
    @discardableResult
    public func finish(_ text: String = "", end: ReplyEnd = .finished) async throws -> String {
        try await client.finishReply(messageId, text, end: end)
    }

    /// Gives the reply up: every member sees it end as ``/TypewireCore/ReplyEnd/failed`` (with `reason`, at most 200
    /// characters, if given), the bot's activity is cleared and nothing is stored.
    public func fail(reason: String? = nil) async {
        await client.failReply(messageId, reason: reason)
    }
}
