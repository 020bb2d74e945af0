/// What a member knows of one timeline's read state (a conversation's main timeline, or a thread): their
/// unread count and their own mark, the server's word on both, and how far the others have read.
///
/// A value fed by what the server says (`subscribed`, `unread`, `receipts`) and by the messages that
/// arrive, with no clock: the server counts, the client adds the messages of others that arrive after the
/// count, and the next `unread` (from any of the member's devices) replaces the count, so every device
/// shows the same number. Message ids are opaque: who has read a message is answered against the order in
/// which the timeline shows its messages (``readers(of:sentBy:position:)``).
public struct ReadState: Hashable, Sendable {
    /// What "seen by" says of one message.
    public enum Readers: Hashable, Sendable {
        /// These members (its sender aside) have read it, in the order their marks came; empty: nobody yet.
        case named([String])
        /// In a group too large to name its readers: how many have (the server counts them).
        case counted(Int)
        /// Not known: a large group's counts cover only its newest messages.
        case unknown
    }

    /// Messages of others past the member's own mark, at most ``WireProtocol/maxUnreadCount`` (show
    /// "999+" at the cap).
    public private(set) var unreadCount = 0
    /// The newest message the member read here, on any device (nil before the first).
    public private(set) var ownMark: String?
    /// The others' shared marks, by member: the newest message each read (a member who sent a message has
    /// read up to it). Empty in a group too large to name its readers.
    public private(set) var marks: [String: ReadMark] = [:]
    /// In a group too large to name its readers, the readers of the newest messages, newest first.
    public private(set) var readCounts: [ReadCount]?
    /// The others' delivered marks, by member: the newest message a device of theirs received. Empty in a
    /// group too large to name its readers.
    public private(set) var delivered: [String: ReadMark] = [:]

    /// How far one of the member's own messages has gone, for its ticks.
    public enum Progress: Hashable, Sendable {
        /// Stored by the server; not yet on every other member's device (or not known).
        case sent
        /// On a device of every other member.
        case delivered
        /// Read by every other member.
        case read
    }

    /// Creates an empty state: nothing read, nothing unread.
    public init() {}

    /// Whether ``unreadCount`` is at the server's cap: there may be more ("999+").
    public var unreadCountIsCapped: Bool { unreadCount >= WireProtocol.maxUnreadCount }

    /// The server's snapshot at `subscribed` (the main timeline's): it replaces what was known, since
    /// marks may have moved while the socket was away. A server that stores no messages sends none: the
    /// state is left as it was.
    public mutating func subscribed(_ frame: ServerFrame.Subscribed, currentUser: String) {
        guard frame.unread != nil || frame.reads != nil else { return }
        unreadCount = min(frame.unread ?? 0, WireProtocol.maxUnreadCount)
        marks = [:]
        for mark in frame.reads ?? [] {
            if mark.user == currentUser { ownMark = mark.messageId } else { marks[mark.user] = mark }
        }
        delivered = [:]
        for mark in frame.delivered ?? [] where mark.user != currentUser { delivered[mark.user] = mark }
        readCounts = frame.readCounts
    }

    /// The member's own mark moved (on this device or another): the server's count replaces the client's.
    public mutating func apply(_ frame: ServerFrame.Unread) {
        ownMark = frame.messageId
        unreadCount = min(max(0, frame.count), WireProtocol.maxUnreadCount)
    }

    /// Others read further (each member's newest mark), or, in a large group, the new counts. A mark of the
    /// member's own (a receipt to their other device) moves their own mark; the count waits for `unread`.
    public mutating func apply(_ frame: ServerFrame.Receipts, currentUser: String) {
        for mark in frame.reads {
            if mark.user == currentUser { ownMark = mark.messageId } else { marks[mark.user] = mark }
        }
        for mark in frame.delivered ?? [] where mark.user != currentUser { delivered[mark.user] = mark }
        if let counts = frame.readCounts { readCounts = counts }
    }

    /// A new message arrived in the timeline (an edit of a known one is not new): the sender has read up to
    /// it; one of the member's own clears their count (a send is a read), one of another's adds to it.
    public mutating func messageArrived(_ message: ChatMessage, currentUser: String) {
        if message.sender == currentUser {
            ownMark = message.id
            unreadCount = 0
        } else {
            marks[message.sender] = ReadMark(user: message.sender, messageId: message.id, at: message.sentAt)
            unreadCount = min(unreadCount + 1, WireProtocol.maxUnreadCount)
        }
    }

    /// How far one of the member's messages has gone among the other members, for its ticks: read once
    /// every one of them has read it, delivered once every one of them has it on a device (received or
    /// read), sent otherwise, and while nobody else is in the conversation. In a group too large to name its
    /// readers, read once its counted readers are all the others, sent otherwise (no deliveries are told
    /// there). A member who hides their reading shows neither, so the message stays sent for them.
    /// - Parameters:
    ///   - messageId: The message.
    ///   - others: The conversation's members other than its sender.
    ///   - position: Where a message stands in the timeline's order (nil: not shown there).
    public func progress(of messageId: String, others: Set<String>, position: (String) -> Int?) -> Progress {
        guard !others.isEmpty else { return .sent }
        if let readCounts {
            return (readCounts.first { $0.messageId == messageId }?.readers ?? 0) >= others.count ? .read : .sent
        }
        guard let at = position(messageId) else { return .sent }
        func reached(_ mark: ReadMark?) -> Bool { mark.flatMap { position($0.messageId) }.map { $0 >= at } ?? false }
        if others.allSatisfy({ reached(marks[$0]) }) { return .read }
        return others.allSatisfy { reached(marks[$0]) || reached(delivered[$0]) } ? .delivered : .sent
    }

    /// Who has read a message, for "Seen by".
    /// - Parameters:
    ///   - messageId: The message.
    ///   - sender: Its sender, who is not counted.
    ///   - position: Where a message stands in the timeline's order (nil: not shown there, e.g. older than
    ///     what was loaded); a mark at the message or past it counts.
    public func readers(of messageId: String, sentBy sender: String, position: (String) -> Int?) -> Readers {
        if let readCounts {
            return readCounts.first { $0.messageId == messageId }.map { .counted($0.readers) } ?? .unknown
        }
        guard let at = position(messageId) else { return .unknown }
        let readers = marks.values
            .filter { mark in mark.user != sender && position(mark.messageId).map { $0 >= at } == true }
            .sorted { ($0.at, $0.user) < ($1.at, $1.user) }
        return .named(readers.map(\.user))
    }
}
