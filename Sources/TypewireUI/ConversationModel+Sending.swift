import Foundation
import TypewireClient

extension ConversationModel {
    /// Sends the draft: it shows at once as pending, the draft clears, and the others' indicator goes
    /// (the server clears it when it stores the message; on a typing-only server the composer's stop
    /// does). A thread's model sends a reply in its thread. With a ``MessageSource`` the message goes
    /// there. A failure marks the bubble failed and sets
    /// ``lastError``.
    public func send() async {
        let text = draft
        guard let composer, text.contains(where: { !$0.isWhitespace }) else { return }
        clearDraft()  // before any suspension: a second send of the same draft finds it empty
        if userID == nil, let client { userID = await client.userID }  // a screen opened before the first welcome
        let id = UUID().uuidString.lowercased()
        let key = "pending-\(id)"
        let sentAt = Int64(Date().timeIntervalSince1970 * 1_000)
        // With a source the id is made here, before the store sees the message, so its copy (which a
        // listener hands on before the store commits it) takes this bubble's place.
        timeline.addPending(
            key: key, messageID: messageSource.map { _ in id }, sender: userID ?? "", senderName: nil, text: text, sentAt: sentAt)
        do {
            if let messageSource {
                composer.didSend()
                let message = OutgoingMessage(
                    id: id, conversation: conversationID, sender: userID ?? "", text: text, thread: parentMessageID)
                try await messageSource.send(message)
                timeline.acknowledge(key: key)
            } else {
                timeline.acknowledge(key: key, messageID: try await composer.send(text))
            }
        } catch {
            timeline.fail(key: key)
            lastError = error
        }
    }

    /// Sends a message that failed (a "Not sent" bubble, ``MessageItem/isFailed``) again: it shows as pending
    /// in its place, and as failed again, with ``lastError``, if this try fails too. Through a
    /// ``MessageSource`` it goes under the first try's id, so a store that did keep that one keeps one copy.
    /// A bubble of another user than the client's now (one signed out since) is not sent as this one's: it
    /// stays failed, with ``/TypewireClient/TypewireClientError/signedOut``. Does nothing for a bubble that did not fail.
    public func retry(itemID: MessageItem.ID) async {
        guard let item = timeline.retry(key: itemID) else { return }
        do {
            let user = await client?.userID
            guard item.sender.isEmpty || item.sender == user else { throw TypewireClientError.signedOut }
            if let messageSource {
                let message = OutgoingMessage(
                    id: item.messageID ?? UUID().uuidString.lowercased(), conversation: conversationID, sender: user ?? item.sender,
                    text: item.text, thread: parentMessageID)
                try await messageSource.send(message)
                timeline.acknowledge(key: itemID)
            } else {
                guard let handle else { throw TypewireClientError.closed(conversationID) }
                timeline.acknowledge(key: itemID, messageID: try await handle.send(item.text))
            }
        } catch {
            timeline.fail(key: itemID)
            lastError = error
        }
    }

    /// Whether the user may stop this bubble's reply now (a Stop button beside it): it streams, and it answers
    /// this user, or no one in particular.
    public func canStop(_ item: MessageItem) -> Bool {
        item.isStreaming && item.replyID != nil && (item.asker == nil || item.asker == userID)
    }

    /// Asks the bot to stop the reply it streams as `replyID` (``MessageItem/replyID``): the bot stops, or
    /// after the server's grace (2 s) the server ends it; either way the bubble ends with
    /// ``MessageItem/replyEnd`` `.cancelled`, keeping the words so far.
    public func stop(replyID: String) async {
        await handle?.stopReply(replyID)
    }

    /// The app sent the draft itself (through its own backend, without ``send()``): the typing stops at
    /// once and the draft clears; the message shows when its source delivers it.
    public func didSend() {
        composer?.didSend()
        clearDraft()
    }

    /// The user asked for a newline (Shift-Return on a hardware keyboard): the next Return stays in the
    /// draft instead of sending it.
    public func allowNewline() {
        allowsNewline = true
    }

    /// A change of the draft: a Return typed at its end on a hardware keyboard sends it (unless a newline
    /// was asked for); any other change is a keystroke for the composer.
    func draftChanged(from oldValue: String) {
        guard draft != oldValue, !isClearingDraft else { return }
        defer { allowsNewline = false }
        // One newline appended: checked without a copy of the draft (this runs on every keystroke).
        if returnKeySends, hasHardwareKeyboard, !allowsNewline, draft.utf8.last == 0x0A, draft.utf8.count == oldValue.utf8.count + 1,
            draft.utf8.starts(with: oldValue.utf8)
        {
            isClearingDraft = true
            draft = oldValue
            isClearingDraft = false
            Task { await send() }
            return
        }
        composer?.textDidChange(draft)
    }

    /// Empties the draft without a keystroke of its own: the send ends the typing.
    private func clearDraft() {
        isClearingDraft = true
        draft = ""
        isClearingDraft = false
    }
}
