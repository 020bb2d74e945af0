/// Constants of Typewire's WebSocket protocol (docs/PROTOCOL.md).
///
/// Frames are JSON text frames, each an object whose `type` field names it. Times are integers:
/// milliseconds since 1970-01-01 UTC on the server's clock.
public enum WireProtocol {
    /// The protocol version; it is part of the socket's path.
    public static let version = 1
    /// The path of the WebSocket endpoint.
    public static let socketPath = "/v\(version)/socket"
    /// The highest unread count the server counts to (`subscribed`'s `unread`): a count this high means
    /// this many or more, which an app shows as "999+".
    public static let maxUnreadCount = 999
    /// How many of a timeline's newest messages `readCounts` counts the readers of, in a group too large to
    /// name them.
    public static let readCountMessages = 20
}
