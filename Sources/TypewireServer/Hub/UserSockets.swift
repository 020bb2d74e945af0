/// The sockets each user has on a node, counted two ways: the sockets the hub serves (a user with none is
/// offline), and the places the user's sockets hold against the cap (``ServerConfiguration/Sockets/maxPerUser``).
/// A socket cut off for reading too slowly is served no more at once, but it holds its place until its
/// channel is gone, so that a user cannot open more sockets than the cap by leaving cut-off ones behind.
/// A pure value; ``Hub`` keeps it under a lock.
struct UserSockets {
    /// Sockets served per user.
    private var served: [String: Int] = [:]
    /// The user of each socket that holds a place.
    private var holders: [ConnectionID: String] = [:]
    /// Places held per user.
    private var held: [String: Int] = [:]

    /// Whether the user has a socket served.
    func isServed(_ user: String) -> Bool {
        served[user] != nil
    }

    /// The places a user's sockets hold.
    func places(of user: String) -> Int {
        held[user, default: 0]
    }

    /// Takes a place for a new socket of a user who holds fewer than `limit`, and serves it.
    /// - Returns: Whether it is the user's first socket served (they come online); nil if the user is at
    ///   the limit.
    mutating func take(_ id: ConnectionID, of user: String, limit: Int) -> Bool? {
        guard places(of: user) < limit else { return nil }
        holders[id] = user
        held[user, default: 0] += 1
        served[user, default: 0] += 1
        return served[user] == 1
    }

    /// A socket of the user is served no more (it closed, or it was cut off).
    /// - Returns: Whether it was the user's last socket served (they go offline).
    mutating func stopServing(of user: String) -> Bool {
        let left = served[user, default: 1] - 1
        served[user] = left > 0 ? left : nil
        return left <= 0
    }

    /// A socket's channel is gone: its place is free. Harmless for a socket that holds none.
    mutating func release(_ id: ConnectionID) {
        guard let user = holders.removeValue(forKey: id) else { return }
        let left = held[user, default: 1] - 1
        held[user] = left > 0 ? left : nil
    }
}
