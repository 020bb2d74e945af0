import TypewireCore

// Read state on a typing-only server: the app keeps the messages, so `read` and `delivered` name the app's
// own message ids, with the time the app gave each (which orders them) and its thread. The marks and
// `receipts` work as on any server; unread counts stay the app's (no `unread`), and a group whose readers
// would be counted has no receipts (the server cannot count the readers of messages it does not have).
extension HubShard {
    /// How far ahead of the server's clock an app's `sentAt` may be: a device's or a backend's clock ahead.
    static let appClockSkew: Int64 = 3_600_000

    /// The app message a frame names, or nil having answered `invalid_field`: an id and a thread within
    /// ``maxAppMessageIDBytes`` with nothing invisible, and a time from 1970 on, not more than
    /// ``appClockSkew`` ahead of the server's clock.
    func appMessage(_ messageId: String, sentAt: Int64?, thread: String?, request: ClientFrame.Kind, from id: ConnectionID)
        -> AppMessage?
    {
        let problem: String
        if !DisplayName.isAcceptableID(messageId, maxBytes: Self.maxAppMessageIDBytes) {
            problem = "\"messageId\" must be the app's id of the message: 1 to \(Self.maxAppMessageIDBytes) bytes, nothing invisible."
        } else if let thread, !DisplayName.isAcceptableID(thread, maxBytes: Self.maxAppMessageIDBytes) {
            problem = "\"thread\" must be the app's id of the thread's message: 1 to \(Self.maxAppMessageIDBytes) bytes, nothing invisible."
        } else if let sentAt, sentAt > 0, sentAt <= now() + Self.appClockSkew {
            return AppMessage(id: messageId, sentAt: sentAt, thread: thread)
        } else {
            problem =
                "This server keeps no messages (typing-only mode): \"sentAt\" must be when your app says the message was sent, "
                + "in milliseconds since 1970, at most an hour ahead of the server's clock."
        }
        reply(to: id, .init(code: .invalidField, message: problem, ref: String(messageId.prefix(64)), request: request))
        return nil
    }
}
