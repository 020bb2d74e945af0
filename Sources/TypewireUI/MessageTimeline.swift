import TypewireCore

/// The bubbles of a conversation's timeline (its main one, or a thread's), oldest first, merging what belongs together: a pending
/// message with its stored copy, a bot's streamed reply with the message it is stored as
/// (`clientMessageId` `stream-<messageId>`), an edit with its message, and a message the server sends
/// again after a reconnect with itself. Message ids are opaque: nothing assumes they are numbers.
public struct MessageTimeline: Hashable, Sendable {
    /// The bubbles, oldest first.
    public private(set) var items: [MessageItem] = []

    /// Creates a thread of these bubbles (for previews and tests).
    public init(items: [MessageItem] = []) {
        self.items = items
    }

    /// A message from the server: new, edited, the stored copy of a pending one or of a streamed reply, or
    /// one already shown.
    public mutating func receive(_ message: ChatMessage) {
        let streamKey = message.clientMessageId.flatMap(ReplyID.replyMessageId(of:)).map { Self.streamKey(message.sender, $0) }
        let index =
            items.firstIndex { $0.messageID == message.id }
            ?? streamKey.flatMap { key in items.firstIndex { $0.id == key } }
            ?? message.clientMessageId.flatMap { sent in items.firstIndex { $0.messageID == sent } }  // a source's own id
        guard let index else {
            // Stored messages in the server's order: one from a history that arrives after a newer live
            // message (a second screen's `subscribed`) goes before it, not under it.
            let position = items.lastIndex { $0.isPending || $0.isStreaming || $0.sentAt <= message.sentAt }.map { $0 + 1 } ?? 0
            // A stored reply keeps its stream's key: parts still on their way find it and add nothing.
            return items.insert(
                MessageItem(
                    id: streamKey ?? "message-\(message.id)", messageID: message.id, sender: message.sender, senderName: message.senderName,
                    text: message.text, sentAt: message.sentAt, editedAt: message.editedAt
                ), at: position)
        }
        items[index].messageID = message.id
        items[index].text = message.text
        items[index].senderName = message.senderName ?? items[index].senderName
        items[index].editedAt = message.editedAt
        items[index].isStreaming = false
        // A pending bubble stays pending until its send returns (``acknowledge(key:messageID:)``): a store's
        // listener hands on a local write long before the server has it.
    }

    /// A message of this device's user, on its way; `messageID` if its id is known before it is stored (a
    /// ``MessageSource``'s ``OutgoingMessage/id``), so that its stored copy takes this bubble's place.
    public mutating func addPending(key: String, messageID: String? = nil, sender: String, senderName: String?, text: String, sentAt: Int64)
    {
        items.append(
            MessageItem(
                id: key, messageID: messageID, sender: sender, senderName: senderName, text: text, sentAt: sentAt, isPending: true))
    }

    /// The pending message `key` is stored, as `messageID` if the server gave it one then (nil: it had its
    /// id already). If its copy arrived first as a bubble of its own, the pending bubble goes and the copy
    /// stays where it is.
    public mutating func acknowledge(key: String, messageID: String? = nil) {
        guard let index = items.firstIndex(where: { $0.id == key }) else { return }
        guard let messageID else {
            items[index].isPending = false
            return
        }
        if items.contains(where: { $0.messageID == messageID && $0.id != key }) {
            items.remove(at: index)
        } else {
            items[index].messageID = messageID
            items[index].isPending = false
        }
    }

    /// The server refused the pending message `key`.
    public mutating func fail(key: String) {
        guard let index = items.firstIndex(where: { $0.id == key }) else { return }
        items[index].isPending = false
        items[index].isFailed = true
    }

    /// The failed message `key` goes again: pending, no longer failed, in its place. Returns it, or nil if
    /// `key` is not a failed message.
    public mutating func retry(key: String) -> MessageItem? {
        guard let index = items.firstIndex(where: { $0.id == key && $0.isFailed }) else { return nil }
        items[index].isFailed = false
        items[index].isPending = true
        return items[index]
    }

    /// A part of a bot's streamed reply: appended (a catch-up's `text` replaces the text so far), unless a part
    /// of that number was applied already; the final part ends it and says how (``MessageItem/replyEnd``).
    public mutating func stream(_ part: ServerFrame.StreamDelta, senderName: String?, now: Int64) {
        let key = Self.streamKey(part.user, part.messageId)
        let index: Int
        if let found = items.firstIndex(where: { $0.id == key }) {
            index = found
        } else {
            items.append(
                MessageItem(
                    id: key, sender: part.user, senderName: senderName, text: "", sentAt: now, isStreaming: true, replyID: part.messageId))
            index = items.count - 1
        }
        if let asker = part.asker { items[index].asker = asker }
        guard items[index].isStreaming else { return }  // the stored reply arrived already
        if let seq = part.seq {
            guard seq > items[index].partNumber else { return }
            items[index].partNumber = seq
        }
        items[index].text = part.text ?? items[index].text + part.delta
        if let end = part.ending {
            items[index].isStreaming = false
            items[index].replyEnd = end
        }
    }

    /// Ends every reply still streaming (the screen closed): no cursor is left behind.
    public mutating func endStreams() {
        for index in items.indices where items[index].isStreaming { items[index].isStreaming = false }
    }

    /// Ends a bot's replies still streaming (it went quiet); other bots' stream on.
    public mutating func endStreams(of bot: String) {
        for index in items.indices where items[index].isStreaming && items[index].sender == bot { items[index].isStreaming = false }
    }

    private static func streamKey(_ user: String, _ messageID: String) -> String {
        "stream-\(user)-\(messageID)"
    }
}

/// The earlier name of ``MessageTimeline`` ("thread" is a reply thread everywhere else).
@available(*, deprecated, renamed: "MessageTimeline")
public typealias MessageThread = MessageTimeline
