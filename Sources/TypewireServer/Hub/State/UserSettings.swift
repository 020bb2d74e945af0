/// What the store says of a user when their socket connects, for every shard: their blocks both ways, and
/// what they share with others.
struct UserSettings: Sendable {
    /// The users they blocked.
    var blocked: Set<String>
    /// The users who blocked them.
    var blockers: Set<String>
    /// Whether they share their typing.
    var sharesTyping: Bool
    /// Whether they share their presence.
    var sharesPresence: Bool
    /// What they show of their reading, and see of others'.
    var readReceipts: ReadReceiptSharing = .share
}
