import TypewireCore

// Changes made through REST (or reported by another node): membership, sharing, blocks.
extension Hub {
    /// A participant joined: they may subscribe from now on.
    public func participantAdded(_ user: String, to conversation: String) {
        cluster?.publish(.membership(conversation: conversation, user: user, added: true))
        applyParticipantAdded(user, to: conversation)
    }

    func applyParticipantAdded(_ user: String, to conversation: String) {
        membershipChanges += 1
        members.add(user, to: conversation)
    }

    /// A participant left or was removed: their activity is cleared and their subscriptions end at once.
    public func participantRemoved(_ user: String, from conversation: String) {
        cluster?.publish(.membership(conversation: conversation, user: user, added: false))
        applyParticipantRemoved(user, from: conversation)
    }

    func applyParticipantRemoved(_ user: String, from conversation: String) {
        membershipChanges += 1
        members.remove(user, from: conversation)
        if board.clear(user: user, in: conversation) { publishActivity(of: conversation) }
        for id in connectionsOfUser[user] ?? [] where connections[id]?.subscriptions.contains(conversation) == true {
            connections[id]?.subscriptions.remove(conversation)
            connections[id]?.activityViews[conversation] = nil
            metrics.subscriptions.decrement()
            removeSubscriber(id, from: conversation)
            reply(to: id, .init(code: .unknownConversation, message: "You are no longer a participant of this conversation.", ref: conversation, request: "subscribe"))
        }
    }

    /// A user turned sharing their typing on or off; off clears what they were doing everywhere.
    public func sharingChanged(_ shares: Bool, for user: String) {
        cluster?.publish(.sharing(user: user, shares: shares))
        applySharingChanged(shares, for: user)
    }

    func applySharingChanged(_ shares: Bool, for user: String) {
        if !shares { for conversation in board.clear(user: user) { publishActivity(of: conversation) } }
        guard connectionsOfUser[user] != nil else { return }  // loaded from the store when the user connects
        if shares { notSharing.remove(user) } else { notSharing.insert(user) }
    }

    /// A user blocked or unblocked another; the blocker's subscriptions are brought up to date at once.
    public func blockChanged(_ isBlocked: Bool, user: String, by blocker: String) {
        cluster?.publish(.block(blocker: blocker, user: user, blocked: isBlocked))
        applyBlockChanged(isBlocked, user: user, by: blocker)
    }

    func applyBlockChanged(_ isBlocked: Bool, user: String, by blocker: String) {
        guard connectionsOfUser[blocker] != nil else { return }  // loaded from the store when the blocker connects
        if isBlocked {
            blocks[blocker, default: []].insert(user)
        } else {
            blocks[blocker]?.remove(user)
            if blocks[blocker]?.isEmpty == true { blocks[blocker] = nil }
        }
        // The blocker's view changes only where the user is doing something now: only there is a frame sent.
        for id in connectionsOfUser[blocker] ?? [] {
            guard blocks[blocker] != nil else {
                for conversation in connections[id]?.subscriptions ?? [] where board.isActive(user, in: conversation) {
                    deliver(Self.encode(.activity(activityUpdate(of: conversation, seenBy: blocker))), as: "activity", to: connections[id]!.outbox)
                }
                connections[id]?.activityViews = [:]  // everything the blocker sees is shared again
                continue
            }
            for conversation in connections[id]?.subscriptions ?? [] {
                sendActivityView(of: conversation, to: id, send: board.isActive(user, in: conversation) ? true : nil)
            }
        }
    }
}
