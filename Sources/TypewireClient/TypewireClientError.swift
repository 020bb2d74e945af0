import TypewireCore

/// The server refused something the client asked for; `message` says why, for a person.
public struct TypewireClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server's error code (e.g. ``ErrorCode/tooLarge``, ``ErrorCode/unknownConversation``).
    public let code: ErrorCode
    /// The server's explanation.
    public let message: String

    public var description: String { "\(message) (\(code))" }
}
