import TypewireCore

// Sockets: registering them, forgetting them, closing them all. Every shard knows every socket of the node
// (``Hub`` registers each in all of them), so that each can tell who is online and whom they blocked.
extension HubShard {
    /// Registers a socket the hub admitted; the user's presence is announced in this shard's conversations if
    /// it is the user's first socket.
    /// - Parameter settings: What the store says of the user: their blocks both ways and what they share.
    func register(_ id: ConnectionID, identity: Identity, outbox: any Outbox, budget: SocketBudget, settings: UserSettings) {
        if settings.sharesTyping { notSharing.remove(identity.userID) } else { notSharing.insert(identity.userID) }
        visibility.connected(identity.userID, blocked: settings.blocked, blockers: settings.blockers, sharesPresence: settings.sharesPresence)
        connections[id] = Connection(identity: identity, outbox: outbox, budget: budget)
        let firstDevice = connectionsOfUser[identity.userID, default: []].isEmpty
        connectionsOfUser[identity.userID, default: []].insert(id)
        if firstDevice, remoteOnline[identity.userID] == nil { announcePresence(of: identity.userID, online: true) }
    }

    /// A socket's outbox, if it is registered.
    func outbox(of id: ConnectionID) -> (any Outbox)? {
        connections[id]?.outbox
    }

    /// Forgets a closed socket: its activity in this shard's conversations is cleared at once, and if it was
    /// the user's last socket, the user goes offline there.
    /// - Returns: Whose socket it was and its outbox; nil if it was forgotten already.
    @discardableResult
    func forget(_ id: ConnectionID) -> (user: String, outbox: any Outbox)? {
        guard let connection = connections.removeValue(forKey: id) else { return nil }
        metrics.subscriptions.decrement(by: Double(connection.subscriptions.count))
        connection.budget.addSubscriptions(-connection.subscriptions.count)
        for conversation in connection.subscriptions { removeSubscriber(id, from: conversation) }
        for conversation in board.clear(connection: id) { publishActivity(of: conversation) }
        let user = connection.identity.userID
        connectionsOfUser[user]?.remove(id)
        if connectionsOfUser[user]?.isEmpty == true {
            connectionsOfUser[user] = nil
            if remoteOnline[user] == nil { announcePresence(of: user, online: false) }
            visibility.disconnected(user)  // reloaded from the store when the user connects again
            notSharing.remove(user)
        }
        return (user, connection.outbox)
    }

    /// Closes every socket with the going-away code, so clients reconnect elsewhere or later; returns once
    /// every socket closed (a peer that does not answer is waited for no longer than the close timeout).
    func closeAll(reason: String) async {
        let outboxes = connections.values.map(\.outbox)
        await withTaskGroup(of: Void.self) { group in
            for outbox in outboxes { group.addTask { await outbox.close(reason: reason) } }
        }
    }
}
