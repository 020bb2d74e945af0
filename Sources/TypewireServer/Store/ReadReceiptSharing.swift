/// What a user shows of their reading, and sees of others' (`PUT /v1/settings {"readReceipts":…}`, or the
/// server API's): the server enforces it, under the server's ``ReadReceiptPolicy``.
public enum ReadReceiptSharing: String, Codable, Sendable, CaseIterable {
    /// Others see how far the user read (the default).
    case share
    /// Others see nothing of the user's reading; the user still sees theirs (one-way, as in Stream). Under
    /// the server's `reciprocal` policy it acts as ``reciprocal``.
    case hide
    /// Others see nothing of the user's reading, and the user sees nothing of theirs (as in Signal, WhatsApp
    /// and Telegram).
    case reciprocal
}
