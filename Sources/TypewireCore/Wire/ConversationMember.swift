/// A member of a conversation, as `subscribed` and the REST API list them (the wire calls them `participants`).
public struct ConversationMember: Codable, Hashable, Sendable {
    /// The user id.
    public var id: String
    /// The display name, if known.
    public var name: String?
    /// Whether the user has a live connection.
    public var online: Bool
    /// When an offline user was last seen (milliseconds since 1970, to the minute), if they and the
    /// viewer both share their presence.
    public var lastSeenAt: Int64?
    /// How long ago an offline user was last seen, in buckets, where one of them hides their presence.
    public var lastSeen: LastSeen?
    /// `true` for a bot (its token's role, or the server API's); absent for a person.
    public var bot: Bool?

    /// Whether the member is a bot.
    public var isBot: Bool { bot == true }

    /// Creates a member.
    public init(id: String, name: String?, online: Bool, lastSeenAt: Int64? = nil, lastSeen: LastSeen? = nil, isBot: Bool = false) {
        self.id = id
        self.name = name
        self.online = online
        self.lastSeenAt = lastSeenAt
        self.lastSeen = lastSeen
        self.bot = isBot ? true : nil
    }
}
