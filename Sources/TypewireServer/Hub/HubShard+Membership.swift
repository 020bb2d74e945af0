import TypewireCore

// Changes made through REST (or reported by another node), as ``Hub`` hands them to each shard concerned:
// membership, sharing, blocks.
extension HubShard {
    func applyParticipantAdded(_ user: String, to conversation: String) {
        membershipChanges.changed()
        members.add(user, to: conversation)
    }

    func applyParticipantRemoved(_ user: String, from conversation: String) {
        membershipChanges.changed()
        members.remove(user, from: conversation)
        history.invalidate(conversation)  // a deleted conversation goes this way, member by member
        if board.clear(user: user, in: conversation) { publishActivity(of: conversation) }
        for id in users.sockets(of: user) {
            guard let connection = connections[id] else { continue }
            let change = subscriptions.unsubscribe(id, from: conversation)
            guard change.count != 0 else { continue }
            connection.activityViews[conversation] = nil
            apply(change, to: connection)
            reply(
                to: id,
                .init(
                    code: .unknownConversation, message: "You are no longer a participant of this conversation.", ref: conversation,
                    request: .subscribe))
        }
    }

    func applySharingChanged(_ shares: Bool, for user: String) {
        if !shares { for conversation in board.clear(user: user) { publishActivity(of: conversation) } }
        users.setSharesTyping(shares, for: user)
    }

    /// A block changes what both sides see of each other, if they are connected here (the store is read
    /// when a user connects): neither sees the other's activity nor presence while it holds.
    func applyBlockChanged(_ isBlocked: Bool, user: String, by blocker: String) {
        users.setBlocked(isBlocked, user: user, by: blocker)
        updateView(of: blocker, about: user)
        updateView(of: user, about: blocker)
    }

    /// A viewer's view of `other` changed (a block, or its end): the activity is sent only where `other` is
    /// doing something now, and `presence` where `other` is online and a member (of a group that announces
    /// presence).
    private func updateView(of viewer: String, about other: String) {
        let ids = users.sockets(of: viewer)
        let online = users.isOnline(other) && users.visibility.showsPresence(of: other, to: viewer)
        let presence = users.isOnline(other) && users.visibility.sharesPresence(other)
        for id in ids {
            guard let connection = connections[id] else { continue }
            for conversation in subscriptions.conversations(of: id) {
                if users.visibility.hidesAnyone(from: viewer) {
                    sendActivityView(of: conversation, to: id, delivery: board.isActive(other, in: conversation) ? .always : .recordOnly)
                } else if board.isActive(other, in: conversation) {
                    deliver(Self.encode(.activity(activityUpdate(of: conversation, seenBy: viewer))), as: "activity", to: connection.sink)
                }
                guard presence, let members = members[conversation], members.contains(other),
                    members.count < configuration.typing.largeGroupSize
                else { continue }
                deliver(
                    Self.encode(.presence(.init(conversation: conversation, user: other, online: online))), as: "presence",
                    to: connection.sink)
            }
            if !users.visibility.hidesAnyone(from: viewer) { connection.activityViews = [:] }  // everything it sees is shared again
        }
    }

    /// A user turned sharing their presence with others on or off. If they are connected here, they come
    /// online or go offline for the subscribers of their conversations here (the other nodes hear it from the
    /// presence events of the nodes the user is connected to, ``Hub/presenceSharingChanged(_:for:)``).
    func applyPresenceSharingChanged(_ shares: Bool, for user: String) {
        guard users.isConnected(user), users.visibility.sharesPresence(user) != shares else { return }
        if shares { users.setSharesPresence(true, for: user) }
        announcePresence(of: user, online: shares, hiding: !shares)  // while the user is visible
        if !shares { users.setSharesPresence(false, for: user) }
    }
}
