import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// Edits, and the end of a conversation the server takes away.
@Suite("ConversationHandle against a real server", .timeLimit(.minutes(1)))
struct ConversationHandleTests: ClientTesting {
    @Test func twoHandlesOnOneConversationBothFollowItUntilTheLastCloses() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (bob, bobChat, aliceChat) = (clients[1], chats[1], chats[0])
                let list = await bob.conversation(Self.direct)  // a second screen on the same conversation
                let sent = try await aliceChat.send("One for both")
                _ = try await first(bobChat.messages) { $0.id == sent }
                _ = try await first(list.messages) { $0.id == sent }
                await aliceChat.setActivity(.typing)
                _ = try await first(list.typing) { $0.text == "Alice is typing…" }
                _ = try await first(bobChat.typing) { $0.text == "Alice is typing…" }

                await bobChat.close()
                try await waitUntil(bob) { $0.liveCounts.conversations == 1 }
                await aliceChat.setActivity(.none)
                _ = try await first(list.typing) { $0 == .idle }  // the other handle still follows
                await list.close()
                try await waitUntil(bob) { $0.liveCounts == LiveCounts() }
                // The server counts the frame when it has handled it, a moment after the client sent it.
                try await eventually { try await framesReceived("unsubscribe", on: server) > 0 }
                let unsubscribes = try await framesReceived("unsubscribe", on: server)
                #expect(unsubscribes == 1, "one unsubscribe, when the last handle closed")
            }
        }
    }

    @Test func sendsRefusedByTheRateLimitAreRetriedWithBackoffUntilStored() async throws {
        // One message a second: five sent at once are refused, retried after growing, jittered waits
        // (the quick backoff of these tests: 50 ms, then up to 200 ms), and all stored.
        try await TestServer.run(configure: {
            $0.budgets.messages.rate = 1
            $0.budgets.messages.burst = 1
        }) { server in
            try await withChats(["alice"], of: server) { clients, chats in
                let ids = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 1...5 { group.addTask { try await chats[0].send("message \(index)") } }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                #expect(ids.count == 5)
                let retried = try await framesReceived("send", on: server)
                #expect(retried > 5, "some were refused and sent again (\(retried) sends for 5 messages)")
                try await waitUntil(clients[0]) { $0.retryAttempts.isEmpty && $0.pendingSends.isEmpty }
            }
        }
    }

    @Test func anEditReachesTheOtherMemberAndSomeoneElsesMessageCannotBeEdited() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (bob, aliceChat, bobChat) = (clients[1], chats[0], chats[1])
                let id = try await aliceChat.send("See you at 5")
                let edited = try await aliceChat.edit(id, text: "See you at 6")
                #expect(edited.id == id && edited.text == "See you at 6" && edited.editedAt != nil)
                let seen = try await first(bobChat.messages) { $0.id == id && $0.editedAt != nil }
                #expect(seen.text == "See you at 6")
                await #expect {
                    try await bobChat.edit(id, text: "Bob was here")
                } throws: { error in
                    (error as? TypewireClientError)?.code == .forbidden
                }
                #expect(await bob.liveCounts.pendingEdits == 0)
            }
        }
    }

    @Test func removalFromTheConversationEndsTheHandle() async throws {
        try await TestServer.run { server in
            try await withChats(["bob"], in: "group-six", of: server) { clients, chats in
                let (bob, chat) = (clients[0], chats[0])
                let composer = await chat.composer()
                composer.textDidChange("about to be removed")
                // Alice created the group: she removes Bob.
                let status = try await request("DELETE", "/v1/conversations/group-six/participants/bob", as: "alice", on: server)
                #expect(status == 204)
                for await _ in chat.typing {}  // ends: the server said Bob is no longer in it
                for await _ in chat.messages {}
                try await waitUntil(bob) { $0.liveCounts == LiveCounts() }
                await #expect {
                    try await chat.edit("1", text: "too late")
                } throws: { error in
                    (error as? TypewireClientError)?.reason == .closed
                }
            }
        }
    }

    @Test func aConversationThatDoesNotExistEndsItsHandleOnceTheWaitForItIsOver() async throws {
        var configuration = Self.quickBackoff
        configuration.conversationWait = .milliseconds(500)
        try await TestServer.run { server in
            try await withClients(["alice"], of: server, configuration: configuration) { clients in
                try await waitUntilConnected(clients[0])
                let chat = await clients[0].conversation("no-such-conversation")
                for await _ in chat.typing {}
                #expect(await clients[0].liveCounts.conversations == 0)
                #expect(await chat.endReason?.code == .unknownConversation)
            }
        }
    }
}
