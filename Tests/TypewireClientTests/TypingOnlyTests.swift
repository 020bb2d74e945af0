import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// The SDK against a typing-only server (`--no-messages`): the app sends its messages elsewhere and the
/// composer's stop clears the typing.
@Suite("The client against a typing-only server", .timeLimit(.minutes(1)))
struct TypingOnlyClientTests: ClientTesting {
    @Test func sendingThrowsAtOnceAndDidSendClearsTheTyping() async throws {
        try await TestServer.run(configure: {
            $0.storage.storesMessages = false
            $0.typing.activityTTL = .seconds(60)
        }) { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (alice, aliceChat, bobChat) = (clients[0], chats[0], chats[1])
                #expect(await alice.storesMessages == false)
                let composer = await aliceChat.composer(configuration: .init(refreshInterval: .seconds(2), idleTimeout: .seconds(60)))
                composer.textDidChange("On my way")
                _ = try await first(bobChat.typing) { $0.text == "Alice is typing…" }
                // The app hands the message to its own backend, then tells the composer.
                let error = await #expect(throws: TypewireClientError.self) { try await aliceChat.send("On my way") }
                #expect(error?.code == .messagesDisabled)
                composer.didSend()
                _ = try await first(bobChat.typing, within: .seconds(5)) { $0 == .idle }  // the ttl is a minute: the stop did it
            }
        }
    }

    @Test func readsAndDeliveriesOfTheAppsOwnMessagesReachTheSender() async throws {
        try await TestServer.run(configure: { $0.storage.storesMessages = false }) { server in
            try await withChats(["alice", "bob"], of: server) { _, chats in
                let (aliceChat, bobChat) = (chats[0], chats[1])
                let sentAt = Int64(Date().timeIntervalSince1970 * 1000)
                // Alice's message lives in the app's own store; bob's listener got it, and his screen showed it.
                await bobChat.markDelivered("fs-doc-1", sentAt: sentAt)
                _ = try await first(aliceChat.readState) { $0.delivered["bob"]?.messageId == "fs-doc-1" }
                await bobChat.markRead("fs-doc-1")  // without the app's time: nothing is sent here
                await bobChat.markRead("fs-doc-1", sentAt: sentAt)
                let state = try await first(aliceChat.readState) { $0.marks["bob"] != nil }
                #expect(state.marks["bob"]?.messageId == "fs-doc-1" && state.unreadCount == 0, "the app keeps its unread counts")
                await bobChat.markUnread(from: "fs-doc-1")  // the server cannot order it: nothing is sent
                await bobChat.markRead("fs-doc-2", sentAt: sentAt + 1)
                _ = try await first(aliceChat.readState) { $0.marks["bob"]?.messageId == "fs-doc-2" }
            }
        }
    }

    @Test func aBotReplyStreamsToTheMembersAndFinishingStoresNothing() async throws {
        try await TestServer.run(configure: { $0.storage.storesMessages = false }) { server in
            try await withChats(["alice", "clawd"], in: "bot-clawd", of: server) { clients, chats in
                let (aliceChat, clawdChat) = (chats[0], chats[1])
                let reply = try await clawdChat.beginReply(messageId: "r1")
                _ = try await first(aliceChat.typing) { $0.text == "Clawd is thinking…" }
                try await reply.write("Typing indicators ")
                let firstPart = try await first(aliceChat.replies) { _ in true }
                #expect(firstPart.delta == "Typing indicators " && !firstPart.final)
                let id = try await reply.finish("matter.")
                #expect(id == "r1", "nothing stored: the reply's own id")
                let last = try await first(aliceChat.replies) { $0.final }
                #expect(last.delta == "matter.")
                _ = try await first(aliceChat.typing) { $0 == .idle }
                #expect(try await history(of: "bot-clawd", as: "alice", on: server).isEmpty)
                try await waitUntil(clients[1]) { $0.liveCounts.replies == 0 && $0.pendingSends.isEmpty }
            }
        }
    }
}
