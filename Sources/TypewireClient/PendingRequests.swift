import TypewireCore

/// A message waiting for its `ack`.
struct PendingSend {
    /// The conversation, and the thread the message replies in.
    var timeline: Timeline
    var text: String
    /// The caller of `send` waiting for the server's id; nil for a message from the outbox file, written
    /// before the app was last killed.
    var continuation: CheckedContinuation<String, any Error>?
    /// The user it is sent as: the welcomed user when it was queued, or the first one welcomed after.
    var user: String?
}

/// An edit waiting for the server to fan the edited message out.
struct PendingEdit {
    var conversation: String
    /// The text of the latest edit asked for; an earlier edit still waiting completes with it.
    var text: String
    var waiters: [CheckedContinuation<ChatMessage, any Error>]

    func complete(with message: ChatMessage) {
        for waiter in waiters { waiter.resume(returning: message) }
    }

    func fail(_ error: TypewireClientError) {
        for waiter in waiters { waiter.resume(throwing: error) }
    }
}
