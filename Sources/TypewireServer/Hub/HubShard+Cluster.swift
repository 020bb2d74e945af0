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

    /// Applies what another node of the cluster reported, for this shard's subscribers (``Hub`` hands each
    /// event to the shards it concerns).
    func apply(_ envelope: ClusterEnvelope) async {
        guard !applyNow(envelope), case .messageRef(let conversation, let id) = envelope.event else { return }
        guard subscriptions.isFollowed(conversation) else { return }
        guard let message = try? await store.message(id, in: conversation) else {
            return logger.error("a message announced by another node could not be read", metadata: ["id": "\(id)"])
        }
        deliverRemoteMessage(message)
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
            shard.startTask { await $0.apply(envelope) }  // a message by reference: the store is read
        }
    }

    /// Applies an event that needs no store read.
    /// - Returns: false for a message by reference (``apply(_:)`` reads it from the store).
    private func applyNow(_ envelope: ClusterEnvelope) -> Bool {
        let node = envelope.node
        if let conversation = envelope.event.conversation, !subscriptions.isFollowed(conversation) {
            metrics.cluster.eventsUnfollowed.increment()
        }
        switch envelope.event {
        case .slice(let conversation, let entries, let serverTime):
            // The sender's times become this node's: what is left of each entry counts from now.
            let offset = now() - serverTime
            let local = entries.map {
                ActivityEntry(
                    user: $0.user, name: $0.name, activity: $0.activity, since: $0.since + offset, expiresAt: $0.expiresAt + offset)
            }
            if board.replace(slice: local, of: node, in: conversation) { publishActivity(of: conversation, sharing: false) }
        case .presence(let user, let online):
            setRemotePresence(of: user, on: node, online: online)
        case .message(let message):
            deliverRemoteMessage(message)
        case .messageRef:
            return false
        case .stream(let delta):
            broadcast(Self.encode(.stream(delta)), as: "stream", to: delta.conversation)
        case .membership(let conversation, let user, let added):
            if added { applyParticipantAdded(user, to: conversation) } else { applyParticipantRemoved(user, from: conversation) }
        case .sharing(let user, let shares):
            applySharingChanged(shares, for: user)
        case .presenceSharing(let user, let shares):
            applyPresenceSharingChanged(shares, for: user)
        case .block(let blocker, let user, let blocked):
            applyBlockChanged(blocked, user: user, by: blocker)
        case .nodeStopping:
            nodeGone(node)
        case .nodeDead(let dead):
            nodeGone(dead)
        case .sliceRequest(let conversation):
            publishSlice(of: conversation)
        case .resync:
            republishActivity()
        }
        return true
    }

    /// Reads again from the store what the bus may have failed to tell this shard (it delivers at most once: a
    /// link cut for a second loses what was sent meanwhile): the participants of each conversation followed
    /// here, so that a participant removed meanwhile loses their subscriptions and activity here at once and
    /// one added is let in, and whether each user connected here shares their typing. A read the store cannot
    /// answer, or that a membership change overtook, is left for the next check.
    func recheckFromStore() async {
        for conversation in subscriptions.followedConversations {
            let changes = membershipChanges
            guard let participants = try? await store.participants(of: conversation), changes == membershipChanges else { continue }
            let current = Set(participants.map(\.id))
            var here = members[conversation] ?? []
            for (_, subscriber) in subscriptions.subscribers(of: conversation) { here.insert(subscriber.identity.userID) }
            for user in here.subtracting(current) { applyParticipantRemoved(user, from: conversation) }
            if let cached = members[conversation] {
                for user in current.subtracting(cached) { applyParticipantAdded(user, to: conversation) }
            }
        }
        for user in users.connectedUsers {
            guard let shares = try? await store.sharesTyping(user), shares != users.sharesTyping(user) else { continue }
            applySharingChanged(shares, for: user)
        }
    }

    /// Sends this node's activity in a conversation to the other nodes, if its users are doing something there.
    private func publishSlice(of conversation: String) {
        let entries = board.entries(in: conversation, localOnly: true)
        guard let cluster, !entries.isEmpty else { return }
        cluster.publish(.slice(conversation: conversation, entries: entries, serverTime: now()))
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
