import TypewireCore

/// One bubble of a conversation: a stored message, a message of the user's still on its way, or a bot's
/// reply while it streams.
public struct MessageItem: Identifiable, Hashable, Sendable {
    /// Stable for the bubble's whole life (a pending message keeps it once stored), for SwiftUI lists.
    public let id: String
    /// The server's id, once stored.
    public var messageID: String?
    /// Who wrote it.
    public var sender: String
    /// Their display name, if known.
    public var senderName: String?
    /// The text so far.
    public var text: String
    /// When it was sent (server milliseconds; the device's clock for a pending one).
    public var sentAt: Int64
    /// Sent by this device and not acknowledged yet.
    public var isPending: Bool
    /// The server refused it (``ConversationModel/lastError`` says why).
    public var isFailed: Bool
    /// A bot's reply still streaming in: show a cursor at its end.
    public var isStreaming: Bool
    /// When it was last edited, if ever.
    public var editedAt: Int64?
    /// A bot's reply: the id it streams under (what ``ConversationModel/stop(replyID:)`` takes).
    public var replyID: String?
    /// A bot's reply: the member it answers, who alone may stop it; nil: any member may.
    public var asker: String?
    /// A bot's reply that ended: how (a stop, the server cutting it off, a failure, or finished).
    public var replyEnd: ReplyEnd?
    /// The number of the reply's last part applied: a part or a catch-up not past it is skipped.
    var partNumber: Int64 = 0

    /// Creates an item (for previews and tests).
    public init(
        id: String, messageID: String? = nil, sender: String, senderName: String? = nil, text: String, sentAt: Int64 = 0,
        isPending: Bool = false, isFailed: Bool = false, isStreaming: Bool = false, editedAt: Int64? = nil, replyID: String? = nil,
        asker: String? = nil, replyEnd: ReplyEnd? = nil
    ) {
        self.id = id
        self.messageID = messageID
        self.sender = sender
        self.senderName = senderName
        self.text = text
        self.sentAt = sentAt
        self.isPending = isPending
        self.isFailed = isFailed
        self.isStreaming = isStreaming
        self.editedAt = editedAt
        self.replyID = replyID
        self.asker = asker
        self.replyEnd = replyEnd
    }
}

extension MessageItem {
    /// What VoiceOver reads for the bubble: who wrote it, the text, and its state, in the device's language
    /// (or `language`): "Alice, On my way", "You, On my way, Sending", "You, Too long, Not sent", "Bob,
    /// Fine, Edited", "Clawd, Once upon a, Stopped".
    public func accessibilityLabel(isMine: Bool, language: String? = nil) -> String {
        var parts = [isMine ? UIText.you.localized(in: language) : senderName ?? sender, text]
        if isPending { parts.append(UIText.sending.localized(in: language)) }
        if isFailed { parts.append(UIText.notSent.localized(in: language)) }
        if editedAt != nil { parts.append(UIText.edited.localized(in: language)) }
        if let replyEndNote { parts.append(replyEndNote.localized(in: language)) }
        return parts.joined(separator: ", ")
    }

    /// What to show under a bot's reply that did not end as written ("Stopped", "Cut off", "Couldn't reply");
    /// nil for any other bubble.
    public var replyEndNote: UIText? {
        switch replyEnd {
        case .cancelled?: .stopped
        case .timedOut?: .cutOff
        case .failed?: .replyFailed
        default: nil
        }
    }
}
