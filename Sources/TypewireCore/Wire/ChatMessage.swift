/// A stored message, as the server delivers it.
public struct ChatMessage: Codable, Hashable, Sendable {
    /// The conversation.
    public var conversation: String
    /// The server's id of the message.
    public var id: String
    /// The sender's user id.
    public var sender: String
    /// The sender's display name, if known.
    public var senderName: String?
    /// The text.
    public var text: String
    /// When the server stored it (milliseconds).
    public var sentAt: Int64
    /// The sender's idempotency key, echoed so the sender can match it to its pending send.
    public var clientMessageId: String?
    /// When it was last edited (milliseconds), if ever.
    public var editedAt: Int64?
    /// The message this one answers, when it is a reply in a thread (the parent's id); nil in the
    /// conversation's main timeline.
    public var thread: String?

    /// Creates a message.
    public init(
        conversation: String, id: String, sender: String, senderName: String?, text: String, sentAt: Int64,
        clientMessageId: String? = nil, editedAt: Int64? = nil, thread: String? = nil
    ) {
        self.conversation = conversation
        self.id = id
        self.sender = sender
        self.senderName = senderName
        self.text = text
        self.sentAt = sentAt
        self.clientMessageId = clientMessageId
        self.editedAt = editedAt
        self.thread = thread
    }
}
