import TypewireCore

extension HubShard {
    /// In typing-only mode (``ServerConfiguration/Storage/storesMessages`` false), the answer to a frame that
    /// would store a message, or mark one read; nil for every other frame. A bot's streamed reply (`stream`)
    /// is relayed, not refused: its parts go to the members as they come and nothing is stored (the app
    /// keeps the final text in its own database).
    static func typingOnlyRefusal(of frame: ClientFrame) -> ServerFrame.Failure? {
        let ref: String
        switch frame {
        case .send(let send): ref = send.clientMessageId
        case .edit(let edit): ref = edit.messageId
        case .read, .markUnread, .delivered:
            return ServerFrame.Failure(
                code: .messagesDisabled,
                message: "This server keeps no messages (typing-only mode), so it keeps no read state: keep it in your app's own backend.",
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
