import TypewireCore

/// Something the client asked for could not be done; `message` says why, for a person.
///
/// Most come from the server's `error` frames; ``ErrorCode/closed`` comes from the client itself.
public struct TypewireClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason: the server's error code (e.g. ``ErrorCode/tooLarge``,
    /// ``ErrorCode/unknownConversation``), or ``ErrorCode/closed``.
    public let code: ErrorCode
    /// The explanation.
    public let message: String

    public var description: String { "\(message) (\(code))" }

    /// The server keeps no messages (typing-only mode); known from its `welcome`, so no frame is sent.
    static let messagesDisabled = TypewireClientError(
        code: .messagesDisabled,
        message: "This server keeps no messages (typing-only mode): send the message through your app's own backend and call Composer.didSend()."
    )

    /// The conversation was closed (or the user removed from it) before the request was done.
    static func closed(_ conversation: String) -> TypewireClientError {
        TypewireClientError(code: .closed, message: "The conversation \(conversation) was closed before the request was done.")
    }
}

extension ErrorCode {
    /// Client-side only, never sent by a server: the conversation or the bot reply was closed or ended
    /// before the request was done.
    public static let closed = ErrorCode(rawValue: "closed")
}
