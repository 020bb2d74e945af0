import TypewireCore

extension HubShard {
    /// In typing-only mode (``ServerConfiguration/Storage/storesMessages`` false), the answer to a frame that
    /// would store or stream a message; nil for every other frame.
    static func typingOnlyRefusal(of frame: ClientFrame) -> ServerFrame.Failure? {
        let ref: String
        switch frame {
        case .send(let send): ref = send.clientMessageId
        case .edit(let edit): ref = edit.messageId
        case .stream(let part): ref = part.messageId
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
