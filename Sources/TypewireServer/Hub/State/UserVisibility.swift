/// What the node's connected users may see of each other: a user sees neither the activity nor the presence
/// of the users they blocked, nor of the users who blocked them (a blocker is shown offline to the blocked,
/// everywhere, so that a block cannot be used to track them); and a user who shares their presence with
/// nobody is shown offline to everyone. Kept for the users connected to the node (loaded from the store when
/// a user's first socket opens, dropped with the last), and changed as blocks and settings change.
/// A pure value; each ``HubShard`` keeps a copy.
struct UserVisibility {
    /// The users each connected user blocked.
    private var blocked: [String: Set<String>] = [:]
    /// The users who blocked each connected user.
    private var blockers: [String: Set<String>] = [:]
    /// Connected users who share their presence with nobody.
    private var presenceHidden: Set<String> = []

    /// The users `viewer` sees nothing of.
    func hidden(from viewer: String) -> Set<String> {
        guard let blockers = blockers[viewer] else { return blocked[viewer] ?? [] }
        return blockers.union(blocked[viewer] ?? [])
    }

    /// Whether any connected user sees nothing of someone: while none does, a fan-out asks nothing per subscriber.
    var hidesAnyone: Bool { !blocked.isEmpty || !blockers.isEmpty }

    /// Whether `viewer` sees nothing of someone (their activity views are then their own).
    func hidesAnyone(from viewer: String) -> Bool {
        blocked[viewer] != nil || blockers[viewer] != nil
    }

    /// Whether `user`'s presence may be shown to `viewer` (nil: to anyone, as the server API asks).
    func showsPresence(of user: String, to viewer: String?) -> Bool {
        guard !presenceHidden.contains(user) else { return false }
        guard let viewer else { return true }
        return blocked[viewer]?.contains(user) != true && blockers[viewer]?.contains(user) != true
    }

    /// The users a connected user blocked, and those who blocked them, as the node holds it.
    func blocks(of user: String) -> (blocked: Set<String>, blockers: Set<String>) {
        (blocked[user] ?? [], blockers[user] ?? [])
    }

    /// Whether a connected user shares their presence.
    func sharesPresence(_ user: String) -> Bool {
        !presenceHidden.contains(user)
    }

    /// A user's first socket on the node: what the store says of them.
    mutating func connected(_ user: String, blocked: Set<String>, blockers: Set<String>, sharesPresence: Bool) {
        self.blocked[user] = blocked.isEmpty ? nil : blocked
        self.blockers[user] = blockers.isEmpty ? nil : blockers
        if sharesPresence { presenceHidden.remove(user) } else { presenceHidden.insert(user) }
    }

    /// A user's last socket on the node closed.
    mutating func disconnected(_ user: String) {
        blocked[user] = nil
        blockers[user] = nil
        presenceHidden.remove(user)
    }

    /// `blocker` blocked or unblocked `user`; each side is updated if it is connected (`isConnected`).
    mutating func setBlocked(_ isBlocked: Bool, user: String, by blocker: String, isConnected: (String) -> Bool) {
        if isConnected(blocker) { Self.set(&blocked, blocker, user, isBlocked) }
        if isConnected(user) { Self.set(&blockers, user, blocker, isBlocked) }
    }

    /// A connected user turned sharing their presence on or off.
    mutating func setSharesPresence(_ shares: Bool, for user: String) {
        if shares { presenceHidden.remove(user) } else { presenceHidden.insert(user) }
    }

    private static func set(_ sets: inout [String: Set<String>], _ key: String, _ member: String, _ isIn: Bool) {
        if isIn {
            sets[key, default: []].insert(member)
        } else {
            sets[key]?.remove(member)
            if sets[key]?.isEmpty == true { sets[key] = nil }
        }
    }
}
