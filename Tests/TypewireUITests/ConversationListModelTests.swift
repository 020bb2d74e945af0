import Foundation
import Testing
import TypewireCore
import TypewireTesting
import TypewireUI

@testable import TypewireClient

/// The list model against a real server, beside a conversation model on the same conversation.
@Suite("ConversationListModel against a real server", .timeLimit(.minutes(1)))
@MainActor
struct ConversationListModelTests {
    @Test func lastMessageUnreadCountAndPresenceNoTypingAndNothingLeftBehind() async throws {
        try await TestServer.run { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let list = ConversationListModel(
                    client: clients[1], conversations: [(id: "direct-alice-bob", title: "Alice"), (id: "group-six", title: "The six")]
                )
                await list.appear()
                try await eventually { list.rows.first { $0.id == "direct-alice-bob" }?.onlineMembers.contains("alice") == true }

                let group = ConversationModel(client: clients[0], conversationID: "group-six")
                await group.appear()
                group.draft = "Plans for"
                group.draft = "Plans for Friday?"
                await group.send()
                // The newest conversation first; its count comes with the read state, beside the message.
                try await eventually {
                    list.rows.first?.id == "group-six" && list.rows.first?.lastMessage?.text == "Plans for Friday?"
                        && list.rows.first?.unreadCount == 1
                }
                await list.markRead("group-six")
                try await eventually { list.rows.first?.unreadCount == 0 }  // the server's word
                await list.markUnread("group-six")  // "Mark as Unread": from Alice's message on
                try await eventually { list.rows.first?.unreadCount == 1 }
                await list.markRead("group-six")
                try await eventually { list.rows.first?.unreadCount == 0 }

                // Bob opens the group beside the list: both follow it; closing the screen keeps the list's.
                let bobsScreen = ConversationModel(client: clients[1], conversationID: "group-six")
                await bobsScreen.appear()
                group.draft = "Or Saturday"
                await group.send()
                try await eventually {
                    bobsScreen.messages.last?.text == "Or Saturday" && list.rows.first?.lastMessage?.text == "Or Saturday"
                }
                #expect(list.rows.first?.unreadCount == 1)
                await bobsScreen.disappear()
                group.draft = "Saturday it is"
                await group.send()
                try await eventually { list.rows.first?.lastMessage?.text == "Saturday it is" }

                await group.disappear()
                await list.disappear()
                let counts = await clients[1].liveCounts
                #expect(counts == LiveCounts())
            }
        }
    }

    @Test func whileTheClientIsAwayNoRowShowsAnyoneOnline() async throws {
        try await TestServer.run { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let list = ConversationListModel(client: clients[1], conversations: [(id: "direct-alice-bob", title: "Alice")])
                await list.appear()
                try await eventually { list.rows.first?.onlineMembers.contains("alice") == true }
                await clients[1].disconnect()
                try await eventually { list.rows.first?.onlineMembers.isEmpty == true }  // Alice may have gone meanwhile
                await clients[1].reconnectNow()
                try await eventually { list.rows.first?.onlineMembers.contains("alice") == true }
                await list.disappear()
            }
        }
    }

    /// Every appear re-delivers each conversation's recent messages: counted by id, an unread message counts
    /// once however often the list comes back (counted by arrival, 20 round trips added them again).
    @Test func comingBackToTheListTwentyTimesCountsEachUnreadMessageOnce() async throws {
        try await TestServer.run { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let chat = await clients[0].conversation("direct-alice-bob")
                for text in ["one", "two"] { _ = try await chat.send(text) }
                let list = ConversationListModel(client: clients[1], conversations: [(id: "direct-alice-bob", title: "Alice")])
                await list.appear()
                try await eventually { list.rows.first?.unreadCount == 2 }
                for _ in 0..<20 {
                    await list.disappear()
                    await list.appear()
                }
                _ = try await chat.send("three")  // after the last appear's history on the same socket
                try await eventually { list.rows.first?.lastMessage?.text == "three" }
                // The server may still answer the earlier appears' subscribes when "three" arrives: the count
                // is right once the last appear's `subscribed` is in (counted by arrival, it never comes down).
                try await eventually { list.rows.first?.unreadCount == 3 }
                await list.disappear()
                await chat.close()
            }
        }
    }

    /// SwiftUI starts each lifecycle call in a task of its own: 100 appear and disappear pairs that overlap
    /// end with the list closed and nothing held, and what it then counts is exact.
    @Test func aHundredOverlappingRoundTripsLeaveNoSubscriptionAndExactCounts() async throws {
        try await TestServer.run { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let chat = await clients[0].conversation("group-six")
                for text in ["one", "two"] { _ = try await chat.send(text) }
                let list = ConversationListModel(
                    client: clients[1], conversations: [(id: "group-six", title: "The six"), (id: "direct-alice-bob", title: "Alice")])
                var calls: [Task<Void, Never>] = []
                for _ in 0..<100 {
                    calls.append(Task { await list.appear() })
                    calls.append(Task { await list.disappear() })
                }
                for call in calls { await call.value }
                #expect(!list.isOpen)
                #expect(await clients[1].liveCounts == LiveCounts(), "the list left subscriptions open")
                await list.appear()
                try await eventually { list.rows.first?.lastMessage?.text == "two" }
                _ = try await chat.send("three")
                try await eventually { list.rows.first?.lastMessage?.text == "three" }
                #expect(list.rows.first?.unreadCount == 3, "each message once, however often it was delivered")
                await list.disappear()
                #expect(await clients[1].liveCounts == LiveCounts())
                await chat.close()
            }
        }
    }

    @Test func aListReleasedWhileOpenEndsItsSubscriptions() async throws {
        let client = TypewireClient(url: "ws://127.0.0.1:9/v1/socket") { "never asked" }
        var list: ConversationListModel? = ConversationListModel(
            client: client, conversations: [(id: "group-six", title: "The six"), (id: "direct-alice-bob", title: "Alice")])
        await list?.appear()
        #expect(await client.liveCounts.conversations == 2)
        list = nil
        try await eventually { await client.liveCounts == LiveCounts() }
    }

    @Test func onAColdStartTheUsersOwnMessagesAreNotUnread() async throws {
        try await TestServer.run { server in
            let clients = clients(of: server)
            // Bob's list appears before his client ever connected: who he is is not known yet.
            let list = ConversationListModel(client: clients[1], conversations: [(id: "group-six", title: "The six")])
            await list.appear()
            let connections = clients.map { client in Task { try await client.run() } }
            defer { connections.forEach { $0.cancel() } }
            let bobsScreen = ConversationModel(client: clients[1], conversationID: "group-six")
            await bobsScreen.appear()
            bobsScreen.draft = "I'll book"
            await bobsScreen.send()
            try await eventually { list.rows.first?.lastMessage?.text == "I'll book" }
            #expect(list.rows.first?.unreadCount == 0, "Bob's own message is not unread")
            let alices = ConversationModel(client: clients[0], conversationID: "group-six")
            await alices.appear()
            alices.draft = "Thanks"
            await alices.send()
            try await eventually { list.rows.first?.lastMessage?.text == "Thanks" }
            #expect(list.rows.first?.unreadCount == 1)
            await alices.disappear()
            await bobsScreen.disappear()
            await list.disappear()
        }
    }

    @Test func whatTheUserReadIsNotUnreadAndOnlyAnEditOfTheLastMessageChangesTheRow() async throws {
        try await TestServer.run { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let alice = await clients[0].conversation("group-six")
                for text in ["one", "two", "three"] { _ = try await alice.send(text) }
                var stored: [ChatMessage] = []  // as the conversation delivers them to Alice too, with the server's times
                for await message in alice.messages where ["one", "two", "three"].contains(message.text) {
                    stored.append(message)
                    if stored.count == 3 { break }
                }
                // Bob read up to "two" on another screen: the history's "three" is his only unread message.
                let bobs = await clients[1].conversation("group-six")
                await bobs.markRead(stored[1].id)
                for await state in bobs.readState where state.ownMark == stored[1].id { break }
                await bobs.close()
                let list = ConversationListModel(client: clients[1], conversations: [(id: "group-six", title: "The six")])
                await list.appear()
                try await eventually { list.rows.first?.lastMessage?.text == "three" }
                #expect(list.rows.first?.unreadCount == 1)

                _ = try await alice.edit(stored[0].id, text: "one, edited")
                _ = try await alice.edit(stored[2].id, text: "three, edited")
                try await eventually { list.rows.first?.lastMessage?.text == "three, edited" }
                #expect(
                    list.rows.first?.lastMessage?.id == stored[2].id && list.rows.first?.unreadCount == 1, "an edit is not a new message")
                await alice.close()
                await list.disappear()
            }
        }
    }

    /// Alice's and Bob's clients, not running yet.
    private func clients(of server: TestServer) -> [TypewireClient] {
        ["alice", "bob"].map { user in TypewireClient(url: server.socketURL) { try await server.token(user) } }
    }
}
