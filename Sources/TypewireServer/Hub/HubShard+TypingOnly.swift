import TypewireCore

extension HubShard {
    /// In typing-only mode (``ServerConfiguration/Storage/storesMessages`` false), the answer to a frame that
    /// would store a message, or mark one unread; nil for every other frame (a `read` or `delivered` names the
    /// app's own message: `HubShard+AppReceipts`). A bot's streamed reply (`stream`)
    /// is relayed, not refused: its parts go to the members as they come and nothing is stored (the app
    /// keeps the final text in its own database).
    static func typingOnlyRefusal(of frame: ClientFrame) -> ServerFrame.Failure? {
        let ref: String
        switch frame {
        case .send(let send): ref = send.clientMessageId
        case .edit(let edit): ref = edit.messageId
        case .markUnread:
            return ServerFrame.Failure(
                code: .messagesDisabled,
                message:
                    "This server keeps no messages (typing-only mode), so it cannot tell which message is before this one: "
                    + "keep unread counts in your app's own backend.",
                ref: frame.reference, request: frame.kind)
        default: return nil
        }
        return ServerFrame.Failure(
            code: .messagesDisabled,
            message:
                "This server keeps no messages (typing-only mode): send them through your app's own backend, and stop typing yourself when you do.",
            ref: ref, request: frame.type
        )
    }
}
