import TypewireCore

extension HubShard {
    /// Whether a user is online and shares it: what anyone may be told (the server API's presence).
    func isShownOnline(_ user: String) -> Bool {
        users.isOnline(user) && users.visibility.sharesPresence(user)
    }

    /// Whether a user has a socket on another node of the cluster (whatever they share).
    func isConnectedElsewhere(_ user: String) -> Bool {
        users.isConnectedElsewhere(user)
    }

    /// Which of these users are online, here or on another node, and share it (no viewer's blocks applied).
    func onlineUsers(among users: [String]) -> Set<String> {
        Set(users.filter(isShownOnline))
    }

    /// Those of `candidates` who have a socket open here but share their presence with nobody (shown
    /// offline, and last seen "recently").
    func onlineButHiding(among candidates: [String]) -> Set<String> {
        Set(candidates.filter { users.isOnline($0) && !users.visibility.sharesPresence($0) })
    }

    /// Applies what another node of the cluster reported, for this shard's subscribers (``Hub`` hands each
    /// event to the shards it concerns).
    ///
    /// What decides who sees what (a membership, a user's sharing, a block) is never taken from the bus: such
    /// an event only says what changed, and the shard reads it from the store (``HubShard/rereadParticipants(of:)``).
    func apply(_ envelope: ClusterEnvelope) async {
        guard !applyNow(envelope) else { return }
        switch envelope.event {
        case .messageRef(let conversation, let id):
            guard subscriptions.isFollowed(conversation) else { return }
            guard let message = try? await store.message(id, in: conversation) else {
                return logger.error("a message announced by another node could not be read", metadata: ["id": "\(id)"])
            }
            deliverRemoteMessage(message)
        case .membership(let conversation, _, _): await rereadParticipants(of: conversation)
        case .sharing(let user, _), .presenceSharing(let user, _), .readReceipts(let user): await rereadSettings(of: user)
        case .block(let blocker, let user, _): await rereadBlock(of: user, by: blocker)
        default: break
        }
    }

    /// Hands an event to the shard from any thread, without a task: it is applied on the shard's loop, after
    /// what was handed before it from the same thread (the NATS bus, whose messages arrive on an event loop).
    /// On the shard's own loop it is applied at once, not queued behind the loop's other work.
    ///
    /// Only the bus calls it, from where it reads the bus, never from the shard's own code.
    nonisolated func enqueue(_ envelope: ClusterEnvelope) {
        guard eventLoop.inEventLoop else { return eventLoop.execute { self.enqueue(envelope) } }
        assumeIsolated { shard in
            guard !shard.applyNow(envelope) else { return }
            shard.startTask { await $0.apply(envelope) }  // the store is read
        }
    }

    /// Applies an event that needs no store read.
    /// - Returns: false for a message by reference and a change of who sees what (``apply(_:)`` reads them
    ///   from the store).
    private func applyNow(_ envelope: ClusterEnvelope) -> Bool {
        let node = envelope.node
        if let conversation = envelope.event.conversation, !subscriptions.isFollowed(conversation) {
            metrics.cluster.eventsUnfollowed.increment()
        }
        switch envelope.event {
        case .slice(let conversation, let entries, let serverTime, let unlisted):
            // The sender's times become this node's: what is left of each entry counts from now.
            let offset = now().subtractingReportingOverflow(serverTime).partialValue
            let local = entries.map {
                ActivityEntry(
                    user: $0.user, name: $0.name, activity: $0.activity, since: $0.since &+ offset, expiresAt: $0.expiresAt &+ offset,
                    thread: $0.thread)
            }
            let left = unlisted.map { UnlistedActivity(users: $0.users, until: $0.until &+ offset) }
            if board.replace(slice: local, unlisted: left, of: node, in: conversation) { publishActivity(of: conversation, sharing: false) }
        case .presence(let user, let online):
            setRemotePresence(of: user, on: node, online: online)
        case .message(let message):
            deliverRemoteMessage(message)
        case .messageRef, .membership, .sharing, .presenceSharing, .readReceipts, .block:
            return false
        case .stream(let delta):
            remoteReplies.apply(delta, from: node, at: now(), timeout: configuration.messages.replyTimeout.wholeMilliseconds)
            broadcast(Self.encode(.stream(delta)), as: "stream", to: delta.conversation)
        case .stopReply(let conversation, let messageId, let by):
            stopAsked(messageId, in: conversation, by: by)
        case .receipts(let frame):
            remoteReceipts(frame)
        case .unread(let user, let frame):
            deliverUnread(frame, to: user)
        case .nodeStopping:
            nodeGone(node)
        case .nodeDead(let dead):
            nodeGone(dead)
        case .sliceRequest(let conversation):
            publishSlice(of: conversation)
            // The replies its bots stream there, whole so far: the node that asked heard none of their parts.
            for part in streams.withLockedValue({ $0.catchUp(in: conversation) }) { cluster?.publish(.stream(part)) }
        case .resync:
            republishActivity()
        }
        return true
    }

    /// Sends this node's activity in a conversation to the other nodes, if its users are doing something there.
    private func publishSlice(of conversation: String) {
        guard cluster != nil, !board.entries(in: conversation, localOnly: true).isEmpty else { return }
        shareSlice(of: conversation)
    }

    /// Tells the other nodes this node's activity in a conversation, within what the bus carries (``ClusterSlice``).
    func shareSlice(of conversation: String) {
        cluster?.publish(
            ClusterSlice.event(
                of: conversation, entries: board.entries(in: conversation, localOnly: true), maxEntries: configuration.typing.maxEntries,
                serverTime: now()))
    }

    /// Sends this node's activity in every conversation where its users are doing something.
    func republishActivity() {
        for conversation in board.conversationsWithLocalActivity { publishSlice(of: conversation) }
    }

    /// Makes who is online on other nodes what the cluster's table says, for these nodes (every node known
    /// or listed when nil); users who came or went meanwhile are announced.
    func replaceRemotePresence(_ rows: [(node: String, user: String)], of nodes: Set<String>?) {
        var wanted: [String: Set<String>] = [:]
        for row in rows { wanted[row.node, default: []].insert(row.user) }
        for node in nodes ?? users.remoteNodeIDs.union(wanted.keys) {
            let current = Set(users.users(on: node))
            let target = wanted[node] ?? []
            for user in current.subtracting(target) { setRemotePresence(of: user, on: node, online: false) }
            for user in target.subtracting(current) { setRemotePresence(of: user, on: node, online: true) }
        }
    }

    /// Forgets a node that stopped or died: its users' activity goes at once, and those not connected
    /// anywhere else go offline.
    func nodeGone(_ node: String) {
        remoteReplies.forget(node: node)
        for conversation in board.clear(node: node) { publishActivity(of: conversation, sharing: false) }
        for user in users.users(on: node) { setRemotePresence(of: user, on: node, online: false) }
    }

    /// Who is online on other nodes, read from the cluster's table when this node starts.
    func loadRemotePresence(_ rows: [(node: String, user: String)]) {
        for row in rows { setRemotePresence(of: row.user, on: row.node, online: true) }
    }

    private func setRemotePresence(of user: String, on node: String, online: Bool) {
        if users.setRemote(user, on: node, online: online) { announcePresence(of: user, online: online) }
    }

    /// A message stored by another node: like on the sender's node, the sender's typing goes first.
    private func deliverRemoteMessage(_ message: ChatMessage) {
        if message.editedAt == nil, board.clear(user: message.sender, in: message.conversation) {
            publishActivity(of: message.conversation)
        }
        broadcast(Self.encode(.message(message)), as: "message", to: message.conversation, message: message)
    }
}
