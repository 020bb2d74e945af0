/// How a bot's streamed reply and its stored message meet: the server stores the finished reply as a
/// message with the `clientMessageId` `stream-<messageId>` (docs/PROTOCOL.md, `stream`), so a client merges the
/// stored `message` into the bubble it streamed. The web demo's `thread.js` follows the same rule; both are
/// checked against `TestVectors/reply-ids.json`.
public enum ReplyID {
    /// The prefix of a streamed reply's `clientMessageId`.
    public static let prefix = "stream-"

    /// The `clientMessageId` a streamed reply is stored under.
    public static func clientMessageId(ofReply messageId: String) -> String {
        prefix + messageId
    }

    /// The streamed reply's `messageId`, if `clientMessageId` is a streamed reply's; nil for any other message.
    public static func replyMessageId(of clientMessageId: String) -> String? {
        clientMessageId.hasPrefix(prefix) ? String(clientMessageId.dropFirst(prefix.count)) : nil
    }
}
