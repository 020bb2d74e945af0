import Foundation
import Testing
import TypewireCore
import TypewireTesting
import TypewireUI

@testable import TypewireClient

/// The Firebase path: a typing-only server, the app's messages in its own store, and a bot whose reply
/// streams in through Typewire and is then stored by the app's backend.
@Suite("ConversationModel on a typing-only server", .timeLimit(.minutes(1)))
@MainActor
struct TypingOnlyModelTests {
    @Test func theBotStreamsWithItsCursorAndItsStoredReplyTakesTheBubblesPlace() async throws {
        try await TestServer.run(configure: { $0.storage.storesMessages = false }) { server in
            try await withConnectedClients(["alice", "clawd"], of: server) { clients in
                let firestore = MemoryMessageSource()
                let alice = ConversationModel(client: clients[0], conversationID: "bot-clawd", messageSource: firestore)
                await alice.appear()
                let clawd = await clients[1].conversation("bot-clawd")
                let reply = try await clawd.beginReply(messageId: "r1")
                try await eventually { alice.indicatorText == "Clawd is thinking…" && alice.showsThinkingIndicator }
                try await reply.write("Typing indicators ")
                try await eventually { alice.reply == .streaming("Typing indicators ") && alice.showsStreamingCursor }
                let text = "Typing indicators matter."
                #expect(try await reply.finish("matter.") == "r1")
                try await eventually {
                    alice.reply == .idle && alice.messages.last?.text == text && alice.messages.last?.isStreaming == false
                }
                // The bot's backend stores the reply in the app's database under the stream's id.
                firestore.store(
                    ChatMessage(
                        conversation: "bot-clawd", id: "firestore-1", sender: "clawd", senderName: "Clawd", text: text,
                        sentAt: firestore.now(),
                        clientMessageId: ReplyID.clientMessageId(ofReply: "r1")))
                try await eventually { alice.messages.last?.messageID == "firestore-1" }
                #expect(alice.messages.filter { $0.sender == "clawd" }.map(\.text) == [text], "one bubble, not two")
                await alice.disappear()
                #expect(firestore.listenerCount == 0, "the screen's listener ended with it")
            }
        }
    }

    @Test func theAppsOwnMessageSaysSentThenDeliveredThenSeen() async throws {
        try await TestServer.run(configure: { $0.storage.storesMessages = false }) { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let firestore = MemoryMessageSource()  // the app's database, both users' listeners on it
                let alices = ConversationModel(client: clients[0], conversationID: "direct-alice-bob", messageSource: firestore)
                try await expectSentThenDeliveredThenSeen(alices) {
                    let bobs = ConversationModel(client: clients[1], conversationID: "direct-alice-bob", messageSource: firestore)
                    await bobs.appear()  // his listener gets it, and the model reports it delivered
                    return bobs
                }
            }
        }
    }

    @Test func sendingGoesToTheAppsStoreAndTheTypingStops() async throws {
        try await TestServer.run(configure: {
            $0.storage.storesMessages = false
            $0.typing.activityTTL = .seconds(60)
            $0.typing.idleTimeout = .seconds(60)  // the composer's stop, not its idle timeout
        }) { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let firestore = MemoryMessageSource()
                let alice = ConversationModel(client: clients[0], conversationID: "direct-alice-bob", messageSource: firestore)
                let bob = ConversationModel(
                    client: clients[1], conversationID: "direct-alice-bob", messageSource: MemoryMessageSource())
                await alice.appear()
                await bob.appear()
                alice.draft = "On my way"
                try await eventually { bob.typingText == "Alice is typing…" }
                await alice.send()
                #expect(alice.lastError == nil && alice.draft.isEmpty)
                try await eventually {
                    alice.messages.map(\.text) == ["On my way"] && alice.messages.allSatisfy { !$0.isFailed && !$0.isPending }
                }
                #expect(alice.messages.count == 1, "the pending bubble and the stored copy are one")
                try await eventually { bob.typingText == nil }  // the ttl is a minute: the composer's stop did it

                alice.draft = "Sent by the app"
                try await eventually { bob.typingText != nil }
                alice.didSend()  // the app wrote it to its database itself
                #expect(alice.draft.isEmpty)
                try await eventually { bob.typingText == nil }
                await alice.disappear()
                await bob.disappear()
            }
        }
    }

    @Test func aNotSentBubbleIsSentAgainInItsPlaceUnderItsFirstId() async throws {
        try await TestServer.run(configure: { $0.storage.storesMessages = false }) { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let firestore = MemoryMessageSource()
                let alice = ConversationModel(client: clients[0], conversationID: "direct-alice-bob", messageSource: firestore)
                let bob = ConversationModel(client: clients[1], conversationID: "direct-alice-bob", messageSource: firestore)
                await alice.appear()
                await bob.appear()
                firestore.isOffline = true
                alice.draft = "Are you there?"
                await alice.send()
                let failed = try #require(alice.messages.last)
                #expect(failed.isFailed && !failed.isPending && alice.lastError is MemoryMessageSource.Offline)
                await alice.retry(itemID: failed.id)  // still offline: failed again, in its place
                #expect(alice.messages.map(\.id) == [failed.id] && alice.messages[0].isFailed)

                firestore.isOffline = false
                await alice.retry(itemID: failed.id)
                #expect(alice.messages.map(\.id) == [failed.id], "the same bubble, not a second one")
                #expect(!alice.messages[0].isFailed && !alice.messages[0].isPending)
                #expect(firestore.stored(in: "direct-alice-bob").map(\.id) == [failed.messageID], "stored under the first try's id")
                try await eventually { bob.messages.map(\.text) == ["Are you there?"] }
                await alice.retry(itemID: failed.id)  // not failed now: nothing is sent
                #expect(firestore.stored(in: "direct-alice-bob").count == 1 && alice.messages.count == 1)
                await alice.disappear()
                await bob.disappear()
            }
        }
    }
}
