import Foundation
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
        /// The user signed out (``TypewireClient/signOut()``), or the token provider said there is no user
        /// (it threw ``TypewireClientError/signedOut``).
        case signedOut
    }

    /// Who stopped the request, and why.
    public let reason: Reason
    /// The explanation.
    public let message: String

    /// The server's code (e.g. ``/TypewireCore/ErrorCode/tooLarge``, ``/TypewireCore/ErrorCode/unknownConversation``), or nil when the
    /// client ended the request itself (``Reason/closed``).
    public var code: ErrorCode? {
        if case .server(let code) = reason { code } else { nil }
    }

    public var description: String {
        switch reason {
        case .server(let code): "\(message) (\(code))"
        case .closed: "\(message) (closed)"
        case .tokenProvider: "\(message) (token provider)"
        case .signedOut: "\(message) (signed out)"
        }
    }

    /// An error with a reason and an explanation.
    public init(reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }

    /// The conversation was closed (or the user removed from it) before the request was done.
    package static func closed(_ conversation: String) -> TypewireClientError {
        TypewireClientError(reason: .closed, message: "The conversation \(conversation) was closed before the request was done.")
    }

    /// No user is signed in: thrown by a token provider that has none (the client stops asking until
    /// ``TypewireClient/reconnectNow()``), and the error of every send that waited when the user signed out.
    public static let signedOut = TypewireClientError(
        reason: .signedOut, message: "The user signed out: nothing is sent for them, and nothing is connected until another signs in.")

    /// The server keeps no messages (typing-only mode); known from its `welcome`, so no frame is sent.
    static let messagesDisabled = TypewireClientError(
        reason: .server(.messagesDisabled),
        message:
            "This server keeps no messages (typing-only mode): send the message through your app's own backend and call Composer.didSend()."
    )
}

extension TypewireClientError: LocalizedError {
    /// What a person is told, in the app's language (``ErrorText``): what `localizedDescription` shows in
    /// an alert ("This message is too long."), not "The operation couldn't be completed". The server's
    /// explanation, for a developer, is ``message``.
    public var errorDescription: String? { ErrorText(self).text }
}
