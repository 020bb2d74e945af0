import TypewireCore

// The messages waiting for their `ack`, in memory and in the outbox file (``Configuration/outbox``).
extension TypewireClient {
    /// Keeps a message until the server acknowledges it or refuses it for good: in memory, and in the
    /// outbox file before it is sent (killed after this, the app sends it again when it next runs).
    func queueSend(_ clientMessageId: String, in timeline: Timeline, text: String, continuation: CheckedContinuation<String, any Error>?) {
        pendingSends[clientMessageId] = PendingSend(timeline: timeline, text: text, continuation: continuation, user: userID)
        unsent.add(
            .init(clientMessageId: clientMessageId, conversation: timeline.conversation, thread: timeline.thread, text: text, user: userID))
        saveOutbox()
    }

    /// Forgets a message that was acknowledged or refused for good. - Returns: What waited for it.
    func settleSend(_ clientMessageId: String) -> PendingSend? {
        if unsent.remove(clientMessageId) { saveOutbox() }
        return pendingSends.removeValue(forKey: clientMessageId)
    }

    /// Reads the outbox file, once, before the first connection.
    func loadOutbox() {
        guard let file = configuration.outbox, !outboxLoaded else { return }
        outboxLoaded = true
        do {
            unsent = try file.load()
        } catch {
            logger.warning("the outbox file could not be read; its messages are not sent again", metadata: ["error": "\(error)"])
        }
    }

    /// After a welcome: the welcomed user's messages from the outbox file that this run does not know yet
    /// (written before the app was killed) wait for their `ack` again, and are sent with the others.
    func restoreUnsentMessages() {
        guard let user = userID, configuration.outbox != nil, !unsent.messages.isEmpty else { return }
        for message in unsent.claim(by: user) where pendingSends[message.clientMessageId] == nil {
            pendingSends[message.clientMessageId] = PendingSend(
                timeline: Timeline(message.conversation, thread: message.thread), text: message.text, continuation: nil, user: user)
        }
        saveOutbox()
    }

    func saveOutbox() {
        guard let file = configuration.outbox else { return }
        do {
            try file.save(unsent)
        } catch {
            logger.warning("the outbox file could not be written; unsent messages live in memory only", metadata: ["error": "\(error)"])
        }
    }
}
