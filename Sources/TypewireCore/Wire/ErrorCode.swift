/// The code of an `error` frame: a stable, machine-readable reason.
///
/// A struct rather than an enum, so that a client decodes codes that a newer server adds.
public struct ErrorCode: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The code's wire name.
    public var rawValue: String

    /// Creates a code from its wire name.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The frame is not a JSON object, or not valid UTF-8.
    public static let malformedFrame = ErrorCode(rawValue: "malformed_frame")
    /// The frame's `type` is not one this server knows.
    public static let unknownType = ErrorCode(rawValue: "unknown_type")
    /// A field is missing or has the wrong type or value.
    public static let invalidField = ErrorCode(rawValue: "invalid_field")
    /// The frame or a field in it is larger than the server accepts.
    public static let tooLarge = ErrorCode(rawValue: "too_large")
    /// The conversation does not exist, or the user is not in it (the two are not told apart).
    public static let unknownConversation = ErrorCode(rawValue: "unknown_conversation")
    /// The user may not do this in this conversation.
    public static let forbidden = ErrorCode(rawValue: "forbidden")
    /// The token is missing, invalid or expired.
    public static let unauthorized = ErrorCode(rawValue: "unauthorized")
    /// Too many frames: the frame was dropped.
    public static let rateLimited = ErrorCode(rawValue: "rate_limited")
    /// The server could not do it; trying again later may work.
    public static let unavailable = ErrorCode(rawValue: "unavailable")
    /// The reply (a bot's turn) has ended, or never began: a part or a `cancel` for it is refused. A part
    /// after the server ended the turn (it timed out, or was stopped and the bot did not end it in time)
    /// gets it too: the members saw the end already.
    public static let turnEnded = ErrorCode(rawValue: "turn_ended")
    /// The server keeps no messages (typing-only mode): `send`, `edit` and `stream` are refused, and the
    /// app sends its messages through its own backend.
    public static let messagesDisabled = ErrorCode(rawValue: "messages_disabled")
}
