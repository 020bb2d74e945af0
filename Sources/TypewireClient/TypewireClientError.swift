import TypewireCore

/// Something the client asked for could not be done; `message` says why, for a person.
public struct TypewireClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Who stopped the request.
    public enum Reason: Hashable, Sendable {
        /// The server refused it with this code (an `error` frame).
        case server(ErrorCode)
        /// The conversation or the bot reply was closed or ended before the request was done (the client's
        /// own reason; no server sends it).
        case closed
        /// The app's token provider threw (its error's description is in ``TypewireClientError/message``).
        case tokenProvider
    }

    /// Who stopped the request, and why.
    public let reason: Reason
    /// The explanation.
    public let message: String

    /// The server's code (e.g. ``ErrorCode/tooLarge``, ``ErrorCode/unknownConversation``), or nil when the
    /// client ended the request itself (``Reason/closed``).
    public var code: ErrorCode? {
        if case .server(let code) = reason { code } else { nil }
    }

    public var description: String {
        switch reason {
        case .server(let code): "\(message) (\(code))"
        case .closed: "\(message) (closed)"
        case .tokenProvider: "\(message) (token provider)"
        }
    }

    /// An error with a reason and an explanation.
    public init(reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }

    /// The conversation was closed (or the user removed from it) before the request was done.
    static func closed(_ conversation: String) -> TypewireClientError {
        TypewireClientError(reason: .closed, message: "The conversation \(conversation) was closed before the request was done.")
    }

    /// The server keeps no messages (typing-only mode); known from its `welcome`, so no frame is sent.
    static let messagesDisabled = TypewireClientError(
        reason: .server(.messagesDisabled),
        message:
            "This server keeps no messages (typing-only mode): send the message through your app's own backend and call Composer.didSend()."
    )
}
