/// The server's rule for read receipts (`--read-receipts`), which no user's setting loosens.
public enum ReadReceiptPolicy: String, Sendable, CaseIterable {
    /// Each user chooses (``ReadReceiptSharing``). The default.
    case on
    /// No one sees anyone's reading; unread counts still work, each user's own.
    case off
    /// A user who hides their reading (`hide` or `reciprocal`) sees no one's.
    case reciprocal

    /// Whether `viewer` may see others' read marks, given what they chose.
    public func letsSee(_ viewer: ReadReceiptSharing) -> Bool {
        switch self {
        case .on: viewer != .reciprocal
        case .off: false
        case .reciprocal: viewer == .share
        }
    }
}
