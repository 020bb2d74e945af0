/// One member's activity in a conversation, as the server fans it out.
public struct ActivityEntry: Hashable, Sendable {
    /// The member's user id.
    public var user: String
    /// The member's display name, if known.
    public var name: String?
    /// What the member is doing.
    public var activity: MemberActivity
    /// When the activity began (server milliseconds).
    public var since: Int64
    /// When the activity lapses unless refreshed (server milliseconds).
    public var expiresAt: Int64
    /// The thread it happens in (the parent message's id); nil for the main timeline.
    public var thread: String?

    /// Creates an entry.
    public init(user: String, name: String?, activity: MemberActivity, since: Int64, expiresAt: Int64, thread: String? = nil) {
        self.user = user
        self.name = name
        self.activity = activity
        self.since = since
        self.expiresAt = expiresAt
        self.thread = thread
    }
}

extension ActivityEntry: Codable {
    private enum CodingKeys: String, CodingKey {
        case user, name, since, expiresAt, thread
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        user = try container.decode(String.self, forKey: .user)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        since = try container.decode(Int64.self, forKey: .since)
        expiresAt = try container.decode(Int64.self, forKey: .expiresAt)
        thread = try container.decodeIfPresent(String.self, forKey: .thread)
        activity = try MemberActivity(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encodeIfPresent(name, forKey: .name)
        try activity.encode(to: encoder)
        try container.encode(since, forKey: .since)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(thread, forKey: .thread)
    }
}

/// The whole activity state of one conversation: the server's `activity` frame.
///
/// Every recipient gets the same bytes; each client drops its own user (see ``TypingRoster``).
public struct ActivityUpdate: Codable, Hashable, Sendable {
    /// The conversation.
    public var conversation: String
    /// The active members, at most as many as the server lists.
    public var entries: [ActivityEntry]
    /// How many members are active in all, each counted once whatever timelines they are active in; it may
    /// exceed the users `entries` names in a large group.
    public var total: Int
    /// The server's clock when it built the update (milliseconds); receivers measure expiry against it.
    public var serverTime: Int64

    /// Creates an update.
    public init(conversation: String, entries: [ActivityEntry], total: Int? = nil, serverTime: Int64) {
        self.conversation = conversation
        self.entries = entries
        self.total = total ?? Self.userCount(of: entries)
        self.serverTime = serverTime
    }

    /// How many users the entries name, each once, whatever timelines they are in: what `total` counts. Most
    /// updates name one or two users, so no set is made for them (the server counts every update it encodes).
    public static func userCount(of entries: [ActivityEntry]) -> Int {
        guard entries.count > 1 else { return entries.count }
        if entries.count == 2 { return entries[0].user == entries[1].user ? 1 : 2 }
        return Set(entries.lazy.map(\.user)).count
    }
}
