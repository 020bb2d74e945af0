import TypewireCore

/// What one conversation's ordered lane carries to the client: the user's activity, a composer's
/// "the message was sent", and messages to send.
///
/// A conversation's handle and its composers put their steps on one lane, synchronously, as the app
/// calls them; the client performs them in that order. So a composer's last typing frame always leaves
/// before the message typed, and the receiver never sees "is typing" after the message.
enum ConversationStep: Sendable {
    /// Set the user's activity here (a composer's typing frames, or ``ConversationHandle/setActivity(_:)``).
    case activity(MemberActivity)
    /// A composer's user sent the message: typing ends. The server clears it when it stores the message,
    /// so no frame goes out, except on a typing-only server, where none is stored.
    case sent
    /// Send a message; the continuation gets the server's id once stored.
    case send(String, CheckedContinuation<String, any Error>)
}

extension AsyncStream<ConversationStep>.Continuation {
    /// Puts a message on the lane of conversation `id` and waits for the server's id for it.
    /// - Throws: ``TypewireClientError/Reason/closed`` if the lane ended (its handle closed); the server's
    ///   refusal otherwise.
    func send(_ text: String, in id: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            if case .terminated = yield(.send(text, continuation)) {
                continuation.resume(throwing: TypewireClientError.closed(id))
            }
        }
    }
}
