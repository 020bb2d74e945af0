/// The messages the server has not acknowledged yet, as the outbox file keeps them: each with the user who
/// wrote it, so that after a relaunch only that user's messages are sent again (another user may have
/// signed in meanwhile; theirs wait for them).
struct UnsentMessages: Codable, Sendable, Equatable {
    /// One message waiting for its `ack`.
    struct Message: Codable, Sendable, Equatable {
        /// The id the server deduplicates by: sent again, the message is stored once.
        var clientMessageId: String
        var conversation: String
        /// The thread it replies in (nil: the main timeline; files written before threads have none).
        var thread: String?
        var text: String
        /// Who wrote it (nil: written before the client's first `welcome`, taken by the next user welcomed).
        var user: String?
    }

    /// The most messages kept: past it the oldest are dropped (a device that stays offline for long).
    static let capacity = 1_000

    private(set) var messages: [Message] = []

    /// Keeps a message until ``remove(_:)``.
    mutating func add(_ message: Message) {
        messages.append(message)
        if messages.count > Self.capacity { messages.removeFirst(messages.count - Self.capacity) }
    }

    /// Forgets a message (acknowledged, or refused for good). - Returns: Whether it was kept.
    @discardableResult
    mutating func remove(_ clientMessageId: String) -> Bool {
        guard let index = messages.firstIndex(where: { $0.clientMessageId == clientMessageId }) else { return false }
        messages.remove(at: index)
        return true
    }

    /// The messages `user` wrote, and those written before any welcome, which become theirs.
    mutating func claim(by user: String) -> [Message] {
        for index in messages.indices where messages[index].user == nil { messages[index].user = user }
        return messages.filter { $0.user == user }
    }
}
