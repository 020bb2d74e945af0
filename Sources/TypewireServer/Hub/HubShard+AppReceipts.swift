import TypewireCore

// Read state on a typing-only server: the app keeps the messages, so `read` and `delivered` name the app's
// own message ids, with the time the app gave each (which orders them) and its thread. The marks and
// `receipts` work as on any server; unread counts stay the app's (no `unread`), and a group whose readers
// would be counted has no receipts (the server cannot count the readers of messages it does not have).
extension HubShard {
    /// How far ahead of the server's clock an app's `sentAt` may be: a device's or a backend's clock ahead.
    static let appClockSkew: Int64 = 3_600_000

    /// A member read the app's conversation up to one of its messages: their mark in its timeline moves
    /// forward, and the members are told in `receipts`.
    func appRead(_ read: ClientFrame.Read, from id: ConnectionID) async {
        guard let user = connections[id]?.identity.userID,
            let message = appMessage(read.messageId, sentAt: read.sentAt, thread: read.thread, request: .read, from: id),
            await ensureParticipant(user, of: read.conversation, from: id, ref: read.messageId, request: .read)
        else { return }
        let outcome: ReadOutcome
        do {
            outcome = try await store.markAppRead(
                message, in: read.conversation, by: user, at: now(),
                privately: read.isPrivate ?? false || configuration.messages.readReceipts == .off)
        } catch {
            logger.storeFailed("recording a read failed", error: error)
            return reply(to: id, Self.markNotRecorded("The read was", ref: read.messageId, request: .read))
        }
        guard case .moved(let mark, let thread, _, let shared) = outcome else { return }
        webhooks?.record(.messageRead(conversation: read.conversation, thread: thread, mark: mark, isPrivate: !shared))
        if shared, !countsReaders(of: read.conversation) { receiptsChanged(mark, thread: thread, in: read.conversation, isLocal: true) }
    }

    /// A device of the member received the app's conversation up to one of its messages.
    func appDelivered(_ delivered: ClientFrame.Delivered, from id: ConnectionID) async {
        guard let user = connections[id]?.identity.userID, configuration.messages.readReceipts != .off,
            let message = appMessage(
                delivered.messageId, sentAt: delivered.sentAt, thread: delivered.thread, request: .delivered, from: id),
            await ensureParticipant(user, of: delivered.conversation, from: id, ref: delivered.messageId, request: .delivered),
            !countsReaders(of: delivered.conversation)
        else { return }
        let outcome: DeliveredOutcome
        do {
            outcome = try await store.markAppDelivered(message, in: delivered.conversation, by: user, at: now())
        } catch {
            logger.storeFailed("recording a delivery failed", error: error)
            return reply(to: id, Self.markNotRecorded("The delivery was", ref: delivered.messageId, request: .delivered))
        }
        guard case .moved(let mark, let thread) = outcome else { return }
        receiptsChanged(mark, isDelivery: true, thread: thread, in: delivered.conversation, isLocal: true)
    }

    /// The app message a frame names, or nil having answered `invalid_field`: an id and a thread within
    /// ``maxAppMessageIDBytes`` with nothing invisible, and a time from 1970 on, not more than
    /// ``appClockSkew`` ahead of the server's clock.
    private func appMessage(_ messageId: String, sentAt: Int64?, thread: String?, request: ClientFrame.Kind, from id: ConnectionID)
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
