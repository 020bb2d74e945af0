/// The demo's users and conversations, seeded by `typewire serve --demo`.
public enum DemoSeed {
    /// The demo users: six people and a bot.
    public static let users: [Identity] = [
        Identity(userID: "alice", name: "Alice"), Identity(userID: "bob", name: "Bob"),
        Identity(userID: "carol", name: "Carol"), Identity(userID: "dave", name: "Dave"),
        Identity(userID: "erin", name: "Erin"), Identity(userID: "frank", name: "Frank"),
        Identity(userID: "clawd", name: "Clawd", isBot: true),
    ]

    /// The demo's bot, Clawd.
    public static var bot: Identity { users.first { $0.isBot }! }

    /// Creates the users, a direct chat, a group of six and a bot conversation, unless they exist.
    public static func seed(into store: any ChatStore) async throws {
        for user in users { try await store.upsertUser(user) }
        let conversations: [(String, Conversation.Kind, String?, String, [String])] = [
            ("direct-alice-bob", .direct, nil, "alice", ["bob"]),
            ("group-six", .group, "Weekend plans", "alice", ["bob", "carol", "dave", "erin", "frank"]),
            ("bot-clawd", .direct, "Clawd", "alice", ["clawd"]),
        ]
        for (id, kind, title, creator, members) in conversations where try await store.conversation(id) == nil {
            _ = try await store.createConversation(id: id, kind: kind, title: title, creator: creator, members: members)
        }
    }
}
