import Foundation
import Testing
import TypewireClient
import TypewireCore
import TypewireTesting
import TypewireUI

/// Two bots answering in one conversation, as Alice's screen shows them: each reply has its own phase.
@Suite("ConversationModel: two bots at once", .timeLimit(.minutes(1)))
@MainActor
struct TwoBotsModelTests {
    @Test func eachBotThinksStreamsAndFinishesOnItsOwn() async throws {
        try await TestServer.run { server in
            let group = try await server.makeGroup(title: "Bots", members: ["clawd", "scout"])
            let users: [(String, Bool)] = [("alice", false), ("clawd", true), ("scout", true)]
            let clients = users.map { user, isBot in
                TypewireClient(url: server.socketURL) { try await server.token(user, name: user.capitalized, isBot: isBot) }
            }
            let connections = clients.map { client in Task { try await client.run() } }
            defer { connections.forEach { $0.cancel() } }
            let alice = ConversationModel(client: clients[0], conversationID: group)
            await alice.appear()
            let clawd = try await (await clients[1].conversation(group)).beginReply()
            let scout = try await (await clients[2].conversation(group)).beginReply()

            try await eventually { alice.replies.map(\.phase) == [.thinking, .thinking] }
            #expect(Set(alice.replies.map(\.bot)) == ["clawd", "scout"])
            #expect(alice.typingText == "Clawd and Scout are thinking…" || alice.typingText == "Scout and Clawd are thinking…")

            try await clawd.write("Hello ")
            try await eventually { alice.replies.first { $0.bot == "clawd" }?.phase == .streaming("Hello ") }
            #expect(alice.replies.first { $0.bot == "scout" }?.phase == .thinking, "Scout still thinks while Clawd writes")
            #expect(alice.showsThinkingIndicator && alice.showsStreamingCursor)
            #expect(alice.indicatorText?.contains("Scout is thinking") == true, "\(alice.indicatorText ?? "nil")")

            try await scout.write("Hi ")
            try await eventually { alice.replies.map(\.phase).allSatisfy { if case .streaming = $0 { true } else { false } } }
            #expect(alice.messages.filter(\.isStreaming).count == 2, "two bubbles, each with its cursor")
            try await eventually { alice.indicatorText == nil }  // both cursors say it

            _ = try await clawd.finish("there.")
            try await eventually { alice.replies.map(\.bot) == ["scout"] }
            #expect(alice.replies.first?.phase == .streaming("Hi "), "Clawd's end does not end Scout's reply")
            _ = try await scout.finish("all.")
            try await eventually { alice.replies.isEmpty && alice.reply == .idle && !alice.messages.contains(where: \.isStreaming) }
            let texts = alice.messages.filter { $0.sender != "alice" }.map(\.text)
            #expect(Set(texts) == ["Hello there.", "Hi all."])
            await alice.disappear()
        }
    }
}
