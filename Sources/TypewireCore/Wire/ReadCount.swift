/// How many members read a message, in a group too large to name them (over
/// `ServerConfiguration.Conversations.maxNamedReaders`, 50 by default): "Seen by 37".
public struct ReadCount: Codable, Hashable, Sendable {
    /// The message.
    public var messageId: String
    /// The members, its sender aside, whose mark the others see is at it or past it.
    public var readers: Int

    /// Creates a count.
    public init(messageId: String, readers: Int) {
        self.messageId = messageId
        self.readers = readers
    }
}
