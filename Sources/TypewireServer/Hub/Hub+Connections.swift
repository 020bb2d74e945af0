import TypewireCore

// Sockets: registering them, forgetting them, closing them all.
extension Hub {
    /// Registers an authenticated socket and answers with `welcome`.
    ///
    /// The handshake reads what the store knows of the user (settings and blocks, on SQLite's reader
    /// connections, beside any writes) and writes the user only when the token's name or role changed:
    /// a reconnecting user costs no disk write.
    /// - Parameters:
    ///   - identity: Who the socket's token named.
    ///   - outbox: Where the hub queues the socket's frames, and closes it with the going-away code (1001) for
    ///     a shutdown or when it reads too slowly to follow (the outbox overflowed).
    /// - Returns: The connection's id, for every later call.
    /// - Throws: ``ConnectRefusal``: the user opened sockets faster than ``ServerConfiguration/handshakeRate``
    ///   (checked first, so a user reconnecting in a loop costs no store read), already has
    ///   ``ServerConfiguration/maxSocketsPerUser`` sockets, or the store cannot be read now (the client retries later).
    public func connect(_ identity: Identity, outbox: any Outbox) async throws(ConnectRefusal) -> ConnectionID {
        guard !shuttingDown else { throw .shuttingDown }
        guard handshakes.allow(identity.userID, now: now()) else { throw .tooManyHandshakes(rate: configuration.handshakeRate) }
        let limit = configuration.maxSocketsPerUser
        guard connectionsOfUser[identity.userID, default: []].count < limit else { throw .tooManySockets(limit: limit) }
        let stored: StoredUser?
        let blocked: Set<String>
        do {
            async let user = store.recordIfChanged(identity)
            async let blockedUsers = store.blockedUsers(of: identity.userID)
            (stored, blocked) = try await (user, blockedUsers)
        } catch {
            logger.error("the store could not be read for a handshake", metadata: ["error": "\(error)"])
            throw .storeUnavailable
        }
        let shares = stored?.sharesTyping ?? true
        // A user the server API made a bot is one whatever the token says; a token without a name keeps the stored one.
        var identity = identity
        if stored?.isBot == true { identity.isBot = true }
        if identity.name == nil { identity.name = stored?.name }
        // Checked again after the waits: the server may be shutting down, and other sockets of the user may
        // have connected meanwhile.
        guard !shuttingDown else { throw .shuttingDown }
        guard connectionsOfUser[identity.userID, default: []].count < limit else { throw .tooManySockets(limit: limit) }
        if shares { notSharing.remove(identity.userID) } else { notSharing.insert(identity.userID) }
        blocks[identity.userID] = blocked.isEmpty ? nil : blocked
        let id = nextConnectionID
        nextConnectionID += 1
        connections[id] = Connection(
            identity: identity, outbox: outbox,
            unknownConversationLimiter: RateLimiter(
                rate: configuration.unknownConversationRate, burst: configuration.unknownConversationBurst
            )
        )
        outbox.onOverflow { await self.cutOff(id) }
        let firstDevice = connectionsOfUser[identity.userID, default: []].isEmpty
        connectionsOfUser[identity.userID, default: []].insert(id)
        let welcome = ServerFrame.welcome(.init(
            user: Participant(id: identity.userID, name: identity.name, online: true), serverTime: now(),
            config: .init(
                activityTTL: configuration.activityTTL, refreshInterval: configuration.refreshInterval,
                idleTimeout: configuration.idleTimeout, storesMessages: configuration.storesMessages
            )
        ))
        deliver(Self.encode(welcome), as: "welcome", to: connections[id]!.outbox)
        metrics.connections.increment()
        if firstDevice {
            cluster?.publish(.presence(user: identity.userID, online: true))
            if remoteOnline[identity.userID] == nil { announcePresence(of: identity.userID, online: true) }
        }
        return id
    }

    /// Forgets a socket that reads too slowly to follow (its outbox filled up) at once, as if it had
    /// closed, and closes it with 1001. The close frame reaches the client only after what the kernel
    /// already holds for it, so the others do not wait for that: they see the user's activity cleared
    /// (and presence offline) now.
    func cutOff(_ id: ConnectionID) async {
        guard let outbox = connections[id]?.outbox else { return }
        disconnect(id)
        // What is already on its way drains as the peer reads, the close frame last: no time limit.
        await outbox.close(reason: "the connection read too slowly to follow; reconnect", shutdown: false)
    }

    /// Forgets a closed socket: its activity is cleared at once, and if it was the user's last
    /// connection, the user goes offline.
    public func disconnect(_ id: ConnectionID) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        connection.outbox.finish()
        metrics.connections.decrement()
        metrics.subscriptions.decrement(by: Double(connection.subscriptions.count))
        for conversation in connection.subscriptions { removeSubscriber(id, from: conversation) }
        for conversation in board.clear(connection: id) { publishActivity(of: conversation) }
        let user = connection.identity.userID
        connectionsOfUser[user]?.remove(id)
        if connectionsOfUser[user]?.isEmpty == true {
            connectionsOfUser[user] = nil
            streams.forget(bot: user)
            blocks[user] = nil  // reloaded from the store when the user connects again
            notSharing.remove(user)
            cluster?.publish(.presence(user: user, online: false))
            if remoteOnline[user] == nil { announcePresence(of: user, online: false) }
        }
    }

    /// Closes every socket with the going-away code and takes no socket any more: the server is stopping.
    /// Returns once every socket closed (a peer that does not answer is waited for no longer than the close
    /// timeout).
    public func shutDown() async {
        shuttingDown = true
        await closeAll(reason: "server shutting down")
    }

    /// Closes every socket with the going-away code, so clients reconnect elsewhere or later.
    public func closeAll(reason: String) async {
        let outboxes = connections.values.map(\.outbox)
        await withTaskGroup(of: Void.self) { group in
            for outbox in outboxes { group.addTask { await outbox.close(reason: reason, shutdown: true) } }
        }
    }
}
