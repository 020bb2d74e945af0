import Foundation
import Logging
import ServiceLifecycle
import TypewireClient
import TypewireCore

/// The demo's bot: in each of its conversations it answers every new message from a person the way an
/// assistant does: "Clawd is thinking…" for about a second, then the reply streamed word by word, then
/// the stored message. The person it answers may stop it (the reply then ends as cancelled, its words so far
/// kept). It is an ordinary `TypewireClient` with a bot's token, so it also shows the SDK's bot API at work.
public struct DemoBot: Service {
    /// The bot's timing.
    public struct Timing: Sendable {
        /// How long the bot thinks before it writes.
        public var thinking: Duration
        /// The pause between two words of the reply.
        public var perWord: Duration

        /// Creates a timing.
        public init(thinking: Duration = .seconds(1), perWord: Duration = .milliseconds(150)) {
            self.thinking = thinking
            self.perWord = perWord
        }
    }

    private let userID: String
    private let url: @Sendable () async -> String
    private let conversations: @Sendable () async throws -> [String]
    private let token: @Sendable () async throws -> String
    private let timing: Timing
    private let logger: Logger

    /// Creates the bot.
    /// - Parameters:
    ///   - userID: The bot's user id (its own messages get no answer).
    ///   - url: The server's socket URL; awaited, so it can wait for the server to bind its port.
    ///   - conversations: The ids of the bot's conversations, read once the bot starts.
    ///   - timing: How long it thinks and how fast it writes.
    ///   - token: A token for the bot's user (role=bot); called before every connection.
    public init(
        userID: String, url: @escaping @Sendable () async -> String, conversations: @escaping @Sendable () async throws -> [String],
        timing: Timing = .init(), logger: Logger = Logger(label: "typewire.demo-bot"),
        token: @escaping @Sendable () async throws -> String
    ) {
        self.userID = userID
        self.url = url
        self.conversations = conversations
        self.token = token
        self.timing = timing
        self.logger = logger
    }

    /// Connects and answers until cancelled (or the service group shuts down).
    public func run() async throws {
        let client = TypewireClient(
            url: await url(), configuration: .init(streamInterval: timing.perWord), logger: logger, token: token
        )
        let startedAt = Int64(Date().timeIntervalSince1970 * 1000)
        let ids = try await conversations()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { try? await client.run() }
                for id in ids {
                    let chat = await client.conversation(id)
                    group.addTask { await answer(in: chat, after: startedAt) }
                }
            }
        }
    }

    /// Answers the conversation's new messages from people, one after another.
    private func answer(in chat: ConversationHandle, after startedAt: Int64) async {
        for await message in chat.messages
        where message.sentAt >= startedAt && message.editedAt == nil && message.sender != userID {
            do {
                try await reply(to: message, in: chat)
            } catch {
                logger.warning("the demo bot could not reply", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Thinks, then writes the answer word by word, and stores it. A stop from the person it answers ends
    /// the writing at once: the reply ends as cancelled, with the words written so far kept.
    private func reply(to message: ChatMessage, in chat: ConversationHandle) async throws {
        let reply = try await chat.beginReply(answering: message.sender)
        let writing = Task {
            try await Task.sleep(for: timing.thinking)
            for (index, word) in Self.answer(to: message).split(separator: " ").enumerated() {
                try await reply.write(index == 0 ? String(word) : " " + word)
                try await Task.sleep(for: timing.perWord)
            }
        }
        let stopping = Task { for await _ in reply.cancellations { writing.cancel() } }
        defer { stopping.cancel() }
        do {
            try await withTaskCancellationHandler {
                try await writing.value
            } onCancel: {
                writing.cancel()
            }
        } catch is CancellationError where !Task.isCancelled {
            try await reply.finish(end: .cancelled)
            return
        }
        try await reply.finish()
    }

    /// What the bot says: it quotes the message and describes what the reader just saw.
    static func answer(to message: ChatMessage) -> String {
        let name = message.senderName ?? message.sender
        let quoted = message.text.count > 60 ? message.text.prefix(59) + "…" : Substring(message.text)
        return "Hi \(name)! You wrote “\(quoted)”. I thought for a second; now my reply streams in word by word, and then it is stored."
    }
}
