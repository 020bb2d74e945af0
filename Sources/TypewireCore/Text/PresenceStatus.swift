/// A member's presence as a conversation's header says it: online, or when they were last seen, to the
/// grain the server gave (``ConversationMember/lastSeenAt`` or a ``LastSeen`` bucket). ``TypingText/presenceText(_:)``
/// words it.
public enum PresenceStatus: Hashable, Sendable {
    /// Online now.
    case online
    /// Last seen less than a minute ago.
    case justNow
    /// Last seen this many minutes ago (1-59).
    case minutesAgo(Int)
    /// Last seen this many hours ago (1-23).
    case hoursAgo(Int)
    /// Last seen this many days ago (1-6).
    case daysAgo(Int)
    /// Last seen in a bucket: the server's, for a member who hides their presence (or to a viewer who hides
    /// theirs), or an exact time a week old or more ("within a month", "a long time ago").
    case within(LastSeen)

    /// A member's status at `now` (milliseconds since 1970); nil when nothing is known (offline, never seen,
    /// or hidden by a block).
    public init?(online: Bool, lastSeenAt: Int64?, lastSeen: LastSeen?, now: Int64) {
        if online {
            self = .online
        } else if let lastSeenAt {
            let (minute, hour, day): (Int64, Int64, Int64) = (60_000, 3_600_000, 86_400_000)
            let elapsed = now.subtractingReportingOverflow(lastSeenAt)
            let ago = elapsed.overflow ? (lastSeenAt > now ? 0 : Int64.max) : max(0, elapsed.partialValue)
            switch ago {
            case ..<minute: self = .justNow
            case ..<hour: self = .minutesAgo(Int(ago / minute))
            case ..<day: self = .hoursAgo(Int(ago / hour))
            case ..<(7 * day): self = .daysAgo(Int(ago / day))
            default: self = .within(LastSeen(lastSeenAt: lastSeenAt, now: now))
            }
        } else if let lastSeen {
            self = .within(lastSeen)
        } else {
            return nil
        }
    }

    /// A participant's status at `now`.
    public init?(_ participant: ConversationMember, now: Int64) {
        self.init(online: participant.online, lastSeenAt: participant.lastSeenAt, lastSeen: participant.lastSeen, now: now)
    }
}
