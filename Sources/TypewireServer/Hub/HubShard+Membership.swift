import TypewireCore

// Changes made through REST (or reported by another node), as ``Hub`` hands them to each shard concerned:
// membership, sharing, blocks.
extension HubShard {
    func applyParticipantAdded(_ user: String, to conversation: String) {
        membershipChanges += 1
        members.add(user, to: conversation)
    }

    func applyParticipantRemoved(_ user: String, from conversation: String) {
        membershipChanges += 1
        members.remove(user, from: conversation)
        if board.clear(user: user, in: conversation) { publishActivity(of: conversation) }
        for id in connectionsOfUser[user] ?? [] {
            guard let connection = connections[id], connection.subscriptions.remove(conversation) != nil else { continue }
            connection.activityViews[conversation] = nil
            connection.budget.addSubscriptions(-1)
            metrics.subscriptions.decrement()
            removeSubscriber(id, from: conversation)
            reply(to: id, .init(code: .unknownConversation, message: "You are no longer a participant of this conversation.", ref: conversation, request: "subscribe"))
        }
    }

    func applySharingChanged(_ shares: Bool, for user: String) {
        if !shares { for conversation in board.clear(user: user) { publishActivity(of: conversation) } }
        guard connectionsOfUser[user] != nil else { return }  // loaded from the store when the user connects
        if shares { notSharing.remove(user) } else { notSharing.insert(user) }
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
