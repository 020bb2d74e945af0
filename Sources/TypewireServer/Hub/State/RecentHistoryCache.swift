import TypewireCore

/// The recent messages of the conversations a shard's sockets follow, as a `subscribe` last read them, so that
/// the next subscriber of a quiet conversation is answered without a trip to the store.
///
/// Exact on one node, where every change of a conversation's messages passes through the shard that owns the
/// conversation, which drops the entry (``invalidate(_:)``); a cluster keeps none (a ``byteBudget`` of 0),
/// since another node's messages come by a bus that may drop them. A read that a change overtook is used once and not kept:
/// ``beginRead(of:)`` hands out a ticket that a change voids. What it holds is bounded by ``byteBudget``: the
/// messages' text, and an allowance for each message's other fields and each entry; past it, a read is not kept.
struct RecentHistoryCache {
    /// The most bytes a shard keeps: 16 MiB, at the default 64 KiB of history a conversation at least 220
    /// conversations, and thousands of quieter ones.
    static let defaultByteBudget = 16 * 1_024 * 1_024

    /// The most bytes kept.
    let byteBudget: Int
    private var entries: [String: [ChatMessage]] = [:]
    /// The read in flight of each conversation: a later read takes a new ticket, which voids the one before.
    private var reads: [String: ChangeCount.Ticket] = [:]
    private var readsBegun = ChangeCount()
    /// The bytes kept (``size(of:)``).
    private(set) var bytes = 0

    init(byteBudget: Int = Self.defaultByteBudget) {
        self.byteBudget = byteBudget
    }

    /// A conversation's recent messages, if kept.
    subscript(conversation: String) -> [ChatMessage]? {
        entries[conversation]
    }

    /// A read of a conversation's recent messages begins; a later read, or a change, voids its ticket.
    mutating func beginRead(of conversation: String) -> ChangeCount.Ticket {
        readsBegun.changed()
        reads[conversation] = readsBegun.ticket
        return readsBegun.ticket
    }

    /// A read ended: its answer is kept if nothing voided its ticket meanwhile and it fits the budget; nil
    /// (the read failed, or what it was for did not happen) just ends it.
    mutating func endRead(of conversation: String, ticket: ChangeCount.Ticket, answer: [ChatMessage]?) {
        guard reads[conversation] == ticket else { return }
        reads[conversation] = nil
        guard let answer, entries[conversation] == nil else { return }
        let size = Self.size(of: answer)
        guard bytes + size <= byteBudget else { return }
        entries[conversation] = answer
        bytes += size
    }

    /// The conversation's messages changed, or no socket here follows it any more: its entry goes, and a
    /// read in flight will not be kept.
    mutating func invalidate(_ conversation: String) {
        reads[conversation] = nil
        guard let gone = entries.removeValue(forKey: conversation) else { return }
        bytes -= Self.size(of: gone)
    }

    /// What an entry counts against the budget: its messages' text, 200 bytes for each message's ids, names
    /// and times, and 100 for the entry itself.
    static func size(of messages: [ChatMessage]) -> Int {
        messages.reduce(100) { $0 + $1.text.utf8.count + 200 }
    }
}
