import TypewireCore

// Sockets: registering them, forgetting them, closing them all. Every shard knows every socket of the node
// (``Hub`` registers each in all of them), so that each can tell who is online and whom they blocked.
extension HubShard {
    /// Registers a socket the hub admitted; the user's presence is announced in this shard's conversations if
    /// it is the user's first socket.
    /// - Parameter settings: What the store says of the user: their blocks both ways and what they share.
    /// - Parameter renamed: The handshake recorded a new name or role for the user (or a new user).
    func register(
        _ id: ConnectionID, identity: Identity, sink: any FrameSink, budget: SocketBudget, settings: UserSettings, renamed: Bool
    ) {
        if renamed { forgetNames(of: identity.userID) }
        connections[id] = Connection(identity: identity, sink: sink, budget: budget)
        if users.connect(id, of: identity.userID, settings: settings) { announcePresence(of: identity.userID, online: true) }
    }

    /// A socket's sink, if it is registered.
    func sink(of id: ConnectionID) -> (any FrameSink)? {
        connections[id]?.sink
    }

    /// Forgets a closed socket: its activity in this shard's conversations is cleared at once, and if it was
    /// the user's last socket, the user goes offline there (or, `wentAway`, shows online until
    /// ``endPresenceHold(of:)``).
    /// - Returns: Whose socket it was and its sink; nil if it was forgotten already.
    @discardableResult
    func forget(_ id: ConnectionID, wentAway: Bool = false) -> (user: String, sink: any FrameSink)? {
        guard let connection = connections.removeValue(forKey: id) else { return nil }
        apply(subscriptions.removeAll(of: id), to: connection)
        for conversation in board.clear(connection: id) { publishActivity(of: conversation) }
        let user = connection.identity.userID
        switch users.disconnect(id, of: user, wentAway: wentAway) {
        case .stays, .held: break
        case .left(let wentOffline):
            if wentOffline { announcePresence(of: user, online: false) }  // with the user's blocks and settings
            users.forgetSettings(of: user)
        }
        return (user, connection.sink)
    }

    /// The presence grace of a user whose last socket went away ran out: unless a socket of theirs came
    /// back meanwhile, they go offline here.
    func endPresenceHold(of user: String) {
        guard users.endHold(of: user) else { return }
        if !users.isOnline(user) { announcePresence(of: user, online: false) }
        users.forgetSettings(of: user)
    }

    /// Closes every socket with the going-away code, so clients reconnect elsewhere or later; returns once
    /// every socket closed (a peer that does not answer is waited for no longer than the close timeout).
    func closeAll(reason: String) async {
        let sinks = connections.values.map(\.sink)
        await withTaskGroup(of: Void.self) { group in
            for sink in sinks { group.addTask { await sink.close(reason: reason) } }
        }
    }
}
