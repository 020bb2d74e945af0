import Foundation
import Testing
import TypewireClient
import TypewireCore
import TypewireTesting
import TypewireUI

/// A thread's screen (a ``ConversationModel`` with a parent message) beside the conversation's, against a
/// real server: each shows its own timeline.
@Suite("ConversationModel of a thread", .timeLimit(.minutes(1)))
@MainActor
struct ThreadModelTests {
    @Test func aReplyAndTypingInAThreadShowInItsScreenAndAsACountOnTheParent() async throws {
        // A ttl and an idle timeout of a minute: what clears typing is the stop a test claims, never expiry or idling.
        try await TestServer.run(configure: {
            $0.typing.activityTTL = .seconds(60)
            $0.typing.idleTimeout = .seconds(60)
        }) { server in
            let group = try await server.makeGroup(title: "Thread", members: ["bob", "clawd", "scout"])
            let clients = ["alice", "bob"].map { user in
                TypewireClient(url: server.socketURL) { try await server.token(user, name: user.capitalized, isBot: false) }
            }
            let connections = clients.map { client in Task { try await client.run() } }
            defer { connections.forEach { $0.cancel() } }
            let aliceMain = ConversationModel(client: clients[0], conversationID: group)
            await aliceMain.appear()
            let bobMain = ConversationModel(client: clients[1], conversationID: group)
            await bobMain.appear()
            try await eventually { bobMain.onlineMembers.contains("alice") }

            aliceMain.draft = "Lunch?"
            await aliceMain.send()
            let parent = try #require(aliceMain.messages.last?.messageID)
            let aliceThread = ConversationModel(client: clients[0], conversationID: group, parentMessageID: parent)
            await aliceThread.appear()
            let bobThread = ConversationModel(client: clients[1], conversationID: group, parentMessageID: parent)
            await bobThread.appear()
            try await eventually { bobThread.onlineMembers.contains("alice") }

            aliceThread.draft = "Sus"
            try await eventually { bobThread.typingText == "Alice is typing…" }
            try await eventually { bobMain.replyingText(for: parent) == "1 person is replying…" }
            #expect(bobMain.typingText == nil && bobMain.indicatorText == nil, "no one types in the main timeline")
            #expect(bobMain.accessibilityReplyingText(for: parent) == "1 person is replying")

            aliceThread.draft = "Sushi at one"
            await aliceThread.send()
            try await eventually { bobThread.messages.map(\.text) == ["Sushi at one"] }
            try await eventually { bobThread.typingText == nil && bobMain.replyingText(for: parent) == nil }
            #expect(aliceThread.messages.map(\.text) == ["Sushi at one"] && aliceThread.messages.allSatisfy { !$0.isPending })
            #expect(bobMain.messages.map(\.text) == ["Lunch?"], "the reply is not in the main timeline")
            #expect(aliceMain.messages.map(\.text) == ["Lunch?"])

            for model in [aliceThread, bobThread, aliceMain, bobMain] { await model.disappear() }
        }
    }

    @Test func twoBotsReplyInOneThreadEachOnItsOwn() async throws {
        try await TestServer.run { server in
            let group = try await server.makeGroup(title: "Thread", members: ["bob", "clawd", "scout"])
            let users: [(String, Bool)] = [("alice", false), ("clawd", true), ("scout", true)]
            let clients = users.map { user, isBot in
                TypewireClient(url: server.socketURL) { try await server.token(user, name: user.capitalized, isBot: isBot) }
            }
            let connections = clients.map { client in Task { try await client.run() } }
            defer { connections.forEach { $0.cancel() } }
            let main = ConversationModel(client: clients[0], conversationID: group)
            await main.appear()
            main.draft = "Which is faster?"
            await main.send()
            let parent = try #require(main.messages.last?.messageID)
            let thread = ConversationModel(client: clients[0], conversationID: group, parentMessageID: parent)
            await thread.appear()

            let clawd = try await (await clients[1].conversation(group, thread: parent)).beginReply()
            let scout = try await (await clients[2].conversation(group, thread: parent)).beginReply()
            try await eventually { thread.replies.map(\.phase) == [.thinking, .thinking] }
            try await eventually { main.replyingText(for: parent) == "2 people are replying…" }
            #expect(main.replies.isEmpty && main.typingText == nil, "the main timeline shows neither bot")

            try await clawd.write("Clawd ")
            try await eventually { thread.replies.first { $0.bot == "clawd" }?.phase == .streaming("Clawd ") }
            #expect(thread.replies.first { $0.bot == "scout" }?.phase == .thinking)
            #expect(thread.indicatorText?.contains("Scout is thinking") == true, "\(thread.indicatorText ?? "nil")")
            _ = try await clawd.finish("first.")
            _ = try await scout.finish("Scout second.")
            try await eventually { thread.replies.isEmpty && Set(thread.messages.map(\.text)) == ["Clawd first.", "Scout second."] }
            try await eventually { main.replyingText(for: parent) == nil }
            #expect(main.messages.map(\.text) == ["Which is faster?"], "both replies stay in the thread")
            await thread.disappear()
            await main.disappear()
        }
    }
}
