import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// A thread's handle against a real server: its own typing, replies and sends; the main timeline's
/// handle counts who replies on the parent and shows none of it.
@Suite("ConversationHandle of a thread against a real server", .timeLimit(.minutes(1)))
struct ThreadHandleTests: ClientTesting {
    @Test func typingInAThreadShowsInTheThreadAndAsACountOnTheParentNeverInTheMainTimeline() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (bob, aliceChat, bobChat) = (clients[1], chats[0], chats[1])
                let parent = try await aliceChat.send("Dinner on Friday?")
                let aliceThread = await aliceChat.thread(parent)
                let bobThread = await bob.conversation(Self.direct, thread: parent)
                #expect(bobThread.id == Self.direct && bobThread.thread == parent)
                try await waitUntil(bob) { $0.conversations[Self.direct]?.views.values.allSatisfy { $0.roster != nil } == true }

                // Typing in the main timeline shows there, and not in the thread (the same frame reaches both views).
                await aliceChat.setActivity(.typing)
                _ = try await first(bobChat.typing) { $0.text == "Alice is typing…" }
                #expect(await bob.lastPublishedState(in: Self.direct, thread: parent) == .idle)
                await aliceChat.setActivity(.none)
                _ = try await first(bobChat.typing) { $0 == .idle }

                let composer = await aliceThread.composer()
                composer.textDidChange("Count")
                _ = try await first(bobThread.typing) { $0.text == "Alice is typing…" }
                let main = try await first(bobChat.typing) { $0.replying[parent] != nil }
                #expect(
                    main.replying[parent]
                        == ThreadReplying(count: 1, text: "1 person is replying…", accessibilityText: "1 person is replying"))
                #expect(main.typers.isEmpty && main.text == nil, "the main timeline's indicator shows no one typing in a thread")

                // A reply stops the typing in its thread only, and reaches the thread's handle, not the main one's.
                let reply = try await composer.send("Count me in")
                let received = try await first(bobThread.messages) { $0.id == reply }
                #expect(received.thread == parent && received.text == "Count me in")
                _ = try await first(bobThread.typing) { $0 == .idle }
                _ = try await first(bobChat.typing) { $0.replying.isEmpty }
                let later = try await aliceChat.send("See you then")
                let mainMessages = try await collect(bobChat.messages, until: later)
                #expect(mainMessages.map(\.id) == [parent, later], "the reply is not in the main timeline's messages")
            }
        }
    }

    @Test func aThreadsHandleStartsWithItsRecentRepliesFromTheServer() async throws {
        try await TestServer.run { server in
            try await withChats(["alice"], of: server) { _, chats in
                let parent = try await chats[0].send("Who is in?")
                let aliceThread = await chats[0].thread(parent)
                var replies: [String] = []
                for text in ["me", "me too", "and me"] { replies.append(try await aliceThread.send(text)) }
                _ = try await chats[0].send("an answer in the main timeline")
                await aliceThread.close()

                try await withClients(["bob"], of: server) { clients in
                    let bobChat = try await openChat(clients[0])
                    let bobThread = await bobChat.thread(parent)
                    let history = try await collect(bobThread.messages, until: replies.last!)
                    #expect(history.map(\.id) == replies)
                    #expect(history.allSatisfy { $0.thread == parent })
                    await bobThread.close()
                    await bobChat.close()
                }
            }
        }
    }

    @Test func repliesSentWhileDisconnectedArriveAfterTheReconnect() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (bob, aliceChat, bobChat) = (clients[1], chats[0], chats[1])
                let parent = try await aliceChat.send("Anyone?")
                let bobThread = await bobChat.thread(parent)
                let aliceThread = await aliceChat.thread(parent)
                let first = try await aliceThread.send("first")
                _ = try await self.first(bobThread.messages) { $0.id == first }

                await bob.disconnect()
                _ = try await self.first(await bob.states()) { $0 == .paused }
                let missed = try await aliceThread.send("sent while Bob was away")
                await bob.reconnectNow()
                let arrived = try await self.first(bobThread.messages) { $0.id == missed }
                #expect(arrived.thread == parent && arrived.text == "sent while Bob was away")
            }
        }
    }

    @Test func aThreadsRepliesAreFetchedOncePerNewViewAndOncePerReconnect() async throws {
        try await TestServer.run { server in
            try await withChats(["alice"], of: server) { clients, chats in
                let alice = clients[0]
                let parent = try await chats[0].send("Ideas?")
                let thread = await chats[0].thread(parent)
                try await waitUntil(alice) { $0.conversations[Self.direct]?.threadsWaitingForReplies.isEmpty == true }
                #expect(await alice.repliesFetches == 1)

                let list = await alice.conversation(Self.direct)  // a `subscribed` of its own, for a main view
                _ = try await first(list.messages) { $0.id == parent }
                #expect(await alice.repliesFetches == 1, "a thread whose views have its replies is not asked again")

                let second = await alice.conversation(Self.direct, thread: parent)
                try await waitUntil(alice) { $0.conversations[Self.direct]?.threadsWaitingForReplies.isEmpty == true }
                #expect(await alice.repliesFetches == 2, "a new view of the thread gets the replies")

                await alice.disconnect()
                _ = try await first(await alice.states()) { $0 == .paused }
                #expect(await alice.conversations[Self.direct]?.threadsWaitingForReplies == [parent])
                await alice.reconnectNow()
                try await waitUntil(alice) { $0.conversations[Self.direct]?.threadsWaitingForReplies.isEmpty == true }
                #expect(await alice.repliesFetches == 3, "after a reconnect, once for both views of the thread")
                for handle in [thread, list, second] { await handle.close() }
            }
        }
    }

    @Test func closingTheLastHandleOfAThreadStopsTheUsersTypingThereAtOnce() async throws {
        // A minute: the close stops the thread's typing, not expiry.
        try await TestServer.run(configure: { $0.typing.activityTTL = .seconds(60) }) { server in
            try await withChats(["alice", "bob"], of: server) { clients, chats in
                let (alice, bob, aliceChat, bobChat) = (clients[0], clients[1], chats[0], chats[1])
                let parent = try await aliceChat.send("Thoughts?")
                let bobThread = await bobChat.thread(parent)
                let aliceThread = await aliceChat.thread(parent)
                try await waitUntil(bob) { $0.conversations[Self.direct]?.views.values.allSatisfy { $0.roster != nil } == true }
                await aliceThread.setActivity(.recordingAudio)
                _ = try await first(bobThread.typing) { $0.typers.first?.activity == .recordingAudio }
                await aliceChat.setActivity(.typing)
                _ = try await first(bobChat.typing) { $0.text == "Alice is typing…" }

                await aliceThread.close()
                // Gone well before the server's ttl (the frame is a stop, not an expiry); the main typing goes on.
                _ = try await first(bobThread.typing, within: .seconds(3)) { $0 == .idle }
                #expect(await bob.lastPublishedState(in: Self.direct, thread: nil)?.text == "Alice is typing…")
                try await waitUntil(alice) { $0.activeIn == [Timeline(Self.direct)] }
            }
        }
    }
}

extension TypewireClient {
    /// What a view of the conversation's timeline last published (for tests).
    func lastPublishedState(in conversation: String, thread: String?) -> TypingState? {
        conversations[conversation]?.views.values.first { $0.thread == thread }?.lastPublished
    }
}
