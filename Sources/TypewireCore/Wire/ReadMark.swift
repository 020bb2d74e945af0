/// How far a member read a conversation's timeline (its main one, or a thread): their watermark, which
/// only moves forward. `subscribed` carries the members' marks; `receipts` carries the marks that moved.
public struct ReadMark: Codable, Hashable, Sendable {
    /// The member.
    public var user: String
    /// The server's id of the newest message they read there.
    public var messageId: String
    /// When they read it, in the server's milliseconds since 1970.
    public var at: Int64

    /// Creates a mark.
    public init(user: String, messageId: String, at: Int64) {
        self.user = user
        self.messageId = messageId
        self.at = at
    }
}
