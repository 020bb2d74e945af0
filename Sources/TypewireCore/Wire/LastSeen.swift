/// How long ago a user was last seen, in the coarse buckets shown for those who hide their presence (and to
/// those who hide theirs): "last seen recently", "within a week", "within a month", "a long time ago".
public enum LastSeen: String, Codable, Hashable, Sendable {
    /// Within the last 3 days (or online now, for a user who hides their presence).
    case recently
    /// Within the last 7 days.
    case withinWeek = "within_week"
    /// Within the last 30 days.
    case withinMonth = "within_month"
    /// Longer ago.
    case longAgo = "long_ago"

    /// The grain of an exact last seen: a minute, so it says nothing finer about a user's habits.
    public static let grain: Int64 = 60_000

    /// The bucket of a user last seen at `lastSeenAt`, at `now` (milliseconds since 1970).
    public init(lastSeenAt: Int64, now: Int64) {
        let day: Int64 = 86_400_000
        let ago = now.subtractingReportingOverflow(lastSeenAt)
        switch ago.overflow ? (lastSeenAt > now ? Int64.min : Int64.max) : ago.partialValue {
        case ...(3 * day): self = .recently
        case ...(7 * day): self = .withinWeek
        case ...(30 * day): self = .withinMonth
        default: self = .longAgo
        }
    }

    /// A time in milliseconds since 1970, floored to the grain (a time within a minute of `Int64.min` as it is).
    public static func floored(_ time: Int64) -> Int64 {
        let floored = time.subtractingReportingOverflow(((time % grain) + grain) % grain)
        return floored.overflow ? time : floored.partialValue
    }
}
