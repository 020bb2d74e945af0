import TypewireCore

/// What a member is shown of another's last seen (docs/PROTOCOL.md, "Last seen"): the minute, where both
/// share their presence; a bucket (``LastSeen``) where either hides it (reciprocal: a user who hides theirs
/// sees only buckets of others); nothing to or from a blocked user, nor for a user shown online.
enum LastSeenRule {
    /// A participant as `viewer` sees them: `participant.online` already as the viewer may see it.
    /// - Parameters:
    ///   - hidden: A block stands between them: nothing is shown.
    ///   - onlineButHiding: The participant has a socket open but shares their presence with nobody: "recently".
    ///   - record: What the store holds of their last seen (nil: never seen).
    ///   - viewerShares: Whether the viewer shares their own presence.
    static func shown(
        _ participant: ConversationMember, hidden: Bool, onlineButHiding: Bool, record: LastSeenRecord?, viewerShares: Bool, now: Int64
    ) -> ConversationMember {
        guard !participant.online, !hidden else { return participant }
        var shown = participant
        if onlineButHiding {
            shown.lastSeen = .recently
        } else if let record {
            if record.sharesPresence && viewerShares {
                shown.lastSeenAt = record.at
            } else {
                shown.lastSeen = LastSeen(lastSeenAt: record.at, now: now)
            }
        }
        return shown
    }

    /// The last seen of a `presence` frame saying a user just went offline (or hid their presence, `hiding`),
    /// for a receiver who shares their presence or not.
    static func justNow(at now: Int64, hiding: Bool, viewerShares: Bool) -> (at: Int64?, bucket: LastSeen?) {
        hiding || !viewerShares ? (nil, .recently) : (LastSeen.floored(now), nil)
    }
}
