import Foundation

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

    /// The demo users as `GET /v1/demo/users` lists them for the page's picker (only with `--demo`), so that
    /// the page names no user of its own: `{"users":[{"id":"alice","name":"Alice"},…,{"id":"clawd",…,"bot":true}]}`.
    public static func listing() throws -> Data {
        struct Listed: Encodable {
            var id: String
            var name: String?
            var bot: Bool?
        }
        return try JSONEncoder().encode(["users": users.map { Listed(id: $0.userID, name: $0.name, bot: $0.isBot ? true : nil) }])
    }

    /// The bot conversation of each person: `bot-clawd` is alice's, `bot-clawd-bob` bob's, and so on.
    public static let botConversations: [(id: String, user: String)] = users.filter { !$0.isBot }.map { user in
        (user.userID == "alice" ? "bot-clawd" : "bot-clawd-\(user.userID)", user.userID)
    }

    /// Creates the users, a direct chat, a group of six and a conversation with the bot for each person,
    /// unless they exist.
    public static func seed(into store: any ChatStore) async throws {
        for user in users { try await store.recordIfChanged(user) }
        var conversations: [(String, Conversation.Kind, String?, String, [String])] = [
            ("direct-alice-bob", .direct, nil, "alice", ["bob"]),
            ("group-six", .group, "Weekend plans", "alice", ["bob", "carol", "dave", "erin", "frank"]),
        ]
        conversations += botConversations.map { ($0.id, .direct, "Clawd", $0.user, ["clawd"]) }
        for (id, kind, title, creator, members) in conversations where try await store.conversation(id) == nil {
            do {
                _ = try await store.createConversation(id: id, kind: kind, title: title, creator: creator, members: members)
            } catch {
                // Another node of a cluster may have seeded it at the same moment.
                guard try await store.conversation(id) != nil else { throw error }
            }
        }
    }
}
