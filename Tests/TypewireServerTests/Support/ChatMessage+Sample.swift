import TypewireCore

extension ChatMessage {
    /// A message of Bob's in conversation "c", sent at 1 ms, its client id "m" and its id.
    static func bobs(_ id: String, text: String = "Hi") -> ChatMessage {
        ChatMessage(
            conversation: "c", id: id, sender: "bob", senderName: "Bob", text: text, sentAt: 1, clientMessageId: "m\(id)", editedAt: nil)
    }
}
