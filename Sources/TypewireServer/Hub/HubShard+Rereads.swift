import TypewireCore

// What decides who sees what, read again from the store: when another node says it changed (the bus says
// what, never the new state), when a bus link comes back, and every minute (the bus delivers at most once).
extension HubShard {
    /// Reads again from the store everything the bus may have failed to tell this shard (a link cut for a
    /// second loses what was sent meanwhile): the participants of each conversation followed here, so that a
    /// participant removed meanwhile loses their subscriptions and activity here at once and one added is let
    /// in; and whether each user connected here shares their typing, presence and reading, and their blocks both
    /// ways.
    /// A read the store cannot answer is left for the next check.
    func recheckFromStore() async {
        for conversation in subscriptions.followedConversations { await rereadParticipants(of: conversation) }
        for user in users.connectedUsers {
            guard let record = try? await store.userRecord(of: user), users.isConnected(user) else { continue }
            applySettings(of: user, record.stored)
            let held = users.visibility.blocks(of: user)
            for other in record.blocked.symmetricDifference(held.blocked) {
                applyBlockChanged(record.blocked.contains(other), user: other, by: user)
            }
            for other in record.blockers.symmetricDifference(held.blockers) {
                applyBlockChanged(record.blockers.contains(other), user: user, by: other)
            }
        }
    }

    /// Makes a conversation's participants here what the store says, if this shard follows or caches it: the
    /// removed lose their subscriptions and activity, the added are let in. Skipped if a membership change
    /// overtook the read (its own read follows).
    func rereadParticipants(of conversation: String) async {
        guard subscriptions.isFollowed(conversation) || members[conversation] != nil else { return }
        let ticket = membershipChanges.ticket
        guard let participants = try? await store.participants(of: conversation), membershipChanges.isCurrent(ticket) else { return }
        let current = Set(participants.map(\.id))
        var here = members[conversation] ?? []
        for (_, subscriber) in subscriptions.subscribers(of: conversation) { here.insert(subscriber.identity.userID) }
        for user in here.subtracting(current) { applyParticipantRemoved(user, from: conversation) }
        if let cached = members[conversation] {
            for user in current.subtracting(cached) { applyParticipantAdded(user, to: conversation) }
        }
    }

    /// Whether a user connected here shares their typing, presence and reading, from the store.
    func rereadSettings(of user: String) async {
        guard users.isConnected(user) else { return }
        let stored: StoredUser?
        do { stored = try await store.user(user) } catch { return }
        guard users.isConnected(user) else { return }
        applySettings(of: user, stored)
    }

    /// Whether `blocker` blocks `user`, from the store, if either is connected here.
    func rereadBlock(of user: String, by blocker: String) async {
        guard users.isConnected(user) || users.isConnected(blocker) else { return }
        guard let blocked = try? await store.isBlocked(user, by: blocker) else { return }
        let held =
            users.isConnected(blocker)
            ? users.visibility.blocks(of: blocker).blocked.contains(user) : users.visibility.blocks(of: user).blockers.contains(blocker)
        guard blocked != held else { return }
        applyBlockChanged(blocked, user: user, by: blocker)
    }

    /// Applies a connected user's stored settings (nil: a user never stored, the defaults) where they differ
    /// from what this shard holds.
    private func applySettings(of user: String, _ stored: StoredUser?) {
        let sharesTyping = stored?.sharesTyping ?? true
        let sharesPresence = stored?.sharesPresence ?? true
        if sharesTyping != users.sharesTyping(user) { applySharingChanged(sharesTyping, for: user) }
        if sharesPresence != users.visibility.sharesPresence(user) { applyPresenceSharingChanged(sharesPresence, for: user) }
        users.setReadReceipts(stored?.readReceipts ?? .share, for: user)
    }
}
