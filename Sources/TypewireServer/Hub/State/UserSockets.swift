/// The sockets each user has on a node, counted two ways: the sockets the hub serves (a user with none is
/// offline), and the places the user's sockets hold against the cap (``ServerConfiguration/Sockets/maxPerUser``).
/// A socket cut off for reading too slowly is served no more at once, but it holds its place until its
/// channel is gone, so that a user cannot open more sockets than the cap by leaving cut-off ones behind.
/// A user whose last socket went away (1001) is held online for the presence grace
/// (``ServerConfiguration/Sockets/presenceGrace``): a socket of theirs back within it takes the hold over.
/// A pure value; ``Hub`` keeps it under a lock.
struct UserSockets {
    /// Sockets served per user.
    private var served: [String: Int] = [:]
    /// The user of each socket that holds a place.
    private var holders: [ConnectionID: String] = [:]
    /// Places held per user.
    private var held: [String: Int] = [:]
    /// The users held online for the presence grace, each with its hold's number.
    private var presenceHolds: [String: Int] = [:]
    private var lastHold = 0

    /// What a socket served no more did to its user.
    enum Departure: Equatable {
        /// The user has other sockets served.
        case stays
        /// It was the user's last socket: they go offline.
        case offline
        /// It was the user's last socket, and it went away: they show online until hold `hold` ends
        /// (``endHold(_:of:)``).
        case held(hold: Int)
    }

    /// Whether the user has a socket served.
    func isServed(_ user: String) -> Bool {
        served[user] != nil
    }

    /// The places a user's sockets hold.
    func places(of user: String) -> Int {
        held[user, default: 0]
    }

    /// Takes a place for a new socket of a user who holds fewer than `limit`, and serves it.
    /// - Returns: Whether the user comes online with it (their first socket served, and not held online);
    ///   nil if the user is at the limit.
    mutating func take(_ id: ConnectionID, of user: String, limit: Int) -> Bool? {
        guard places(of: user) < limit else { return nil }
        holders[id] = user
        held[user, default: 0] += 1
        served[user, default: 0] += 1
        let wasHeld = presenceHolds.removeValue(forKey: user) != nil
        return served[user] == 1 && !wasHeld
    }

    /// A socket of the user is served no more (it closed, or it was cut off); `wentAway` if its peer said
    /// it goes away and the user is to be held online for the grace.
    mutating func stopServing(of user: String, wentAway: Bool = false) -> Departure {
        let left = served[user, default: 1] - 1
        served[user] = left > 0 ? left : nil
        guard left <= 0 else { return .stays }
        guard wentAway else { return .offline }
        lastHold += 1
        presenceHolds[user] = lastHold
        return .held(hold: lastHold)
    }

    /// The grace of hold `hold` ran out.
    /// - Returns: Whether the user goes offline now (false: a socket of theirs came back, and the hold
    ///   ended with it).
    mutating func endHold(_ hold: Int, of user: String) -> Bool {
        guard presenceHolds[user] == hold else { return false }
        presenceHolds[user] = nil
        return true
    }

    /// A socket's channel is gone: its place is free. Harmless for a socket that holds none.
    mutating func release(_ id: ConnectionID) {
        guard let user = holders.removeValue(forKey: id) else { return }
        let left = held[user, default: 1] - 1
        held[user] = left > 0 ? left : nil
    }
}
