import TypewireClient
import TypewireCore

extension ConversationModel {
    /// Messages of others past what the user read, on any device (the server's count; 999 at most).
    public var unreadCount: Int { readState.unreadCount }

    /// A bubble came on screen: the view calls it from the row's `onAppear`. A message counts as read once
    /// it has been on screen for a second while the screen is open and the app in the foreground
    /// (``/TypewireCore/SeenTracker``); the newest such is reported (``/TypewireClient/ConversationHandle/markRead(_:sentAt:isPrivate:)``).
    public func rowAppeared(_ itemID: String) {
        guard rowsOnScreen.insert(itemID).inserted else { return }
        seenChanged(seen.visibleChanged(visibleMessages, now: .now))
    }

    /// A bubble left the screen (the row's `onDisappear`).
    public func rowDisappeared(_ itemID: String) {
        guard rowsOnScreen.remove(itemID) != nil else { return }
        seenChanged(seen.visibleChanged(visibleMessages, now: .now))
    }

    /// "Mark as unread" on a bubble (a context menu's action): the user's unread count, on every device,
    /// counts the messages of others from this one on. The bubbles on screen now are not read again until
    /// they leave the screen or the screen closes: the user asked to come back to them.
    public func markUnread(from itemID: String) {
        guard let handle, let item = timeline.items.first(where: { $0.id == itemID }), let messageID = item.messageID else { return }
        seen.markedUnread(from: item.sentAt)
        let previous = reading
        reading = Task { [handle] in
            await previous?.value
            await handle.markUnread(from: messageID)
        }
        seenChanged(nil)
    }

    /// Who has read a message, for "Seen by" under the user's own: the members named (in a direct
    /// conversation, the other's name), a count in a group too large to name them, or unknown.
    public func readers(of itemID: String) -> ReadState.Readers {
        guard let item = timeline.items.first(where: { $0.id == itemID }), let messageID = item.messageID else { return .unknown }
        var positions: [String: Int] = [:]
        for (index, item) in timeline.items.enumerated() { if let id = item.messageID { positions[id] = index } }
        return readState.readers(of: messageID, sentBy: item.sender, position: { positions[$0] })
    }

    /// "Seen by Alice and Bob" under one of the user's messages, in the client's language
    /// (``/TypewireClient/TypewireClient/typingText``); "Seen by 37" in a large group; nil while no one has, or not known.
    public func seenText(for itemID: String) -> String? {
        seen(itemID, accessible: false)
    }

    /// The same for VoiceOver: names not cut.
    public func accessibilitySeenText(for itemID: String) -> String? {
        seen(itemID, accessible: true)
    }

    /// How far one of the user's own stored messages has gone among the other members, for its ticks
    /// (``/TypewireCore/ReadState/progress(of:others:position:)``); nil for another's message or one not stored yet.
    public func progress(of itemID: String) -> ReadState.Progress? {
        guard let userID, let item = timeline.items.first(where: { $0.id == itemID }), item.sender == userID,
            let messageID = item.messageID, !item.isPending
        else { return nil }
        var positions: [String: Int] = [:]
        for (index, item) in timeline.items.enumerated() { if let id = item.messageID { positions[id] = index } }
        return readState.progress(of: messageID, others: memberIDs.subtracting([userID]), position: { positions[$0] })
    }

    /// The line under the user's newest stored message, in the client's language: "Seen by Alice and Bob"
    /// once someone has read it, else its ticks' word, "Delivered" or "Sent"; nil for a message it does not
    /// apply to.
    public func statusText(for itemID: String) -> String? {
        seenText(for: itemID) ?? progress(of: itemID).flatMap { client?.typingText.progressText($0) }
    }

    /// The same for VoiceOver: names not cut.
    public func accessibilityStatusText(for itemID: String) -> String? {
        accessibilitySeenText(for: itemID) ?? progress(of: itemID).flatMap { client?.typingText.progressText($0) }
    }

    /// The newest of the user's own bubbles that the server stored: where a screen shows "Seen by", as
    /// Messages does under the last message only.
    public var lastOwnStoredItemID: String? {
        guard let userID else { return nil }
        return timeline.items.last { $0.sender == userID && $0.messageID != nil }?.id
    }

    func show(_ state: ReadState) {
        readState = state
    }

    private func seen(_ itemID: String, accessible: Bool) -> String? {
        guard let text = client?.typingText else { return nil }
        switch readers(of: itemID) {
        case .named(let readers):
            let names = readers.map { reader in memberNames[reader] ?? timeline.items.last { $0.sender == reader }?.senderName }
            return accessible ? text.accessibilitySeenText(by: names) : text.seenText(by: names)
        case .counted(let count): return text.seenText(count: count)
        case .unknown: return nil
        }
    }

    /// The screen opened (on screen, the app in the foreground) or closed.
    func screenActiveChanged(_ active: Bool) {
        seenChanged(seen.activeChanged(active, now: .now))
    }

    /// The stored messages on screen, each placed by its server time.
    private var visibleMessages: [SeenTracker<ContinuousClock.Instant>.Visible] {
        timeline.items.compactMap { item in
            guard rowsOnScreen.contains(item.id), let id = item.messageID, !item.isPending, !item.isStreaming else { return nil }
            return .init(messageId: id, position: item.sentAt)
        }
    }

    /// Reports a message seen (in order, one after another) and sleeps until the next one may be.
    private func seenChanged(_ seenID: String?) {
        if let seenID, let handle {
            // Its time goes with it: a typing-only server orders the app's own ids by it.
            let sentAt = timeline.items.first { $0.messageID == seenID }?.sentAt
            let previous = reading
            reading = Task { [handle] in
                await previous?.value
                await handle.markRead(seenID, sentAt: sentAt)
            }
        }
        seenTimer?.cancel()
        seenTimer = seen.nextDeadline.map { deadline in
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled, let self else { return }
                self.seenChanged(self.seen.tick(now: .now))
            }
        }
    }
}
