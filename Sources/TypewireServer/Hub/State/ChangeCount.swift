/// The one way a cache keeps a read of the store that a change may overtake: the read takes a ``Ticket``
/// before it asks, and its answer is kept only if the ticket is still current once it has it (no change came
/// meanwhile); otherwise the answer is used once and not kept. Used for the participants
/// (`HubShard.membershipChanges`), their names (``MembershipCache``) and a conversation's recent messages
/// (``RecentHistoryCache``, one ticket per conversation, which a later read voids too).
struct ChangeCount: Sendable {
    /// What a read took before it asked.
    struct Ticket: Hashable, Sendable {
        fileprivate let changes: UInt64
    }

    private var changes: UInt64 = 0

    /// The ticket a read takes now.
    var ticket: Ticket { Ticket(changes: changes) }

    /// Something changed: every ticket taken before is void.
    mutating func changed() {
        changes &+= 1
    }

    /// Whether no change came since `ticket` was taken.
    func isCurrent(_ ticket: Ticket) -> Bool {
        ticket.changes == changes
    }
}
