import Foundation
import TypewireClient
import TypewireCore

// A member's presence for a conversation's header: "online", "last seen 5 minutes ago", "last seen recently".
extension ConversationModel {
    /// A member's presence in the client's language (``/TypewireClient/TypewireClient/typingText``): "online" while they are
    /// (and the client is connected), else when they were last seen, as the server shows it to this user
    /// (to the minute, or in buckets where either hides their presence); nil when nothing is known (never
    /// seen, a block, a large group). A header shows the other member's in a direct conversation, and reads
    /// it again as time passes (in a `TimelineView` of a minute: "6 minutes ago").
    public func presenceText(for userID: String, at now: Date = .now) -> String? {
        guard let text = client?.typingText, let status = presenceStatus(of: userID, at: now) else { return nil }
        return text.presenceText(status)
    }

    /// A member's presence at `now`; nil when nothing is known.
    public func presenceStatus(of userID: String, at now: Date = .now) -> PresenceStatus? {
        let seen = lastSeen[userID]
        return PresenceStatus(
            online: onlineMembers.contains(userID), lastSeenAt: seen?.lastSeenAt, lastSeen: seen?.lastSeen,
            now: Int64(now.timeIntervalSince1970 * 1_000))
    }

    /// The members as `subscribed` lists them: their names, and the last seen of those offline.
    func show(_ members: [ConversationMember]) {
        for member in members { if let name = member.name { memberNames[member.id] = name } }
        memberIDs = Set(members.map(\.id))
        lastSeen = Dictionary(uniqueKeysWithValues: members.map { ($0.id, $0) })
    }

    /// A member came online or went offline: an offline one with when, if shown.
    func show(_ change: ServerFrame.Presence) {
        if change.online { onlineMembers.insert(change.user) } else { onlineMembers.remove(change.user) }
        guard !change.online else { return }
        lastSeen[change.user, default: ConversationMember(id: change.user, name: nil, online: false)].lastSeenAt = change.lastSeenAt
        lastSeen[change.user]!.lastSeen = change.lastSeen
    }
}
