/// A message of the app's own, on a typing-only server (which keeps no messages): its read state is kept
/// over the app's ids, ordered by the time the app gives with them (then by id, for two of the same
/// millisecond).
public struct AppMessage: Sendable, Hashable {
    /// The app's id of the message (a Firestore document's id).
    public var id: String
    /// When the app says it was sent, in milliseconds since 1970: what orders the marks.
    public var sentAt: Int64
    /// The thread the message is in (its parent's id), nil for the main timeline.
    public var thread: String?

    /// Creates a position.
    public init(id: String, sentAt: Int64, thread: String? = nil) {
        self.id = id
        self.sentAt = sentAt
        self.thread = thread
    }
}
