import Foundation
import Testing
import TypewireCore
import TypewireTesting
import TypewireUI

@testable import TypewireClient

/// "Seen" in the conversation's model against a real server: what was on an open screen is read, and
/// its sender sees who read it; what was on screen while the app was in the background is not.
@Suite("ConversationModel: read state against a real server", .timeLimit(.minutes(1)))
@MainActor
struct ConversationModelReadingTests {
    @Test func bubblesOnAnOpenScreenAreReadAndTheSenderSeesWhoReadThem() async throws {
        try await TestServer.run { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let alices = ConversationModel(client: clients[0], conversationID: "group-six")
                let bobs = ConversationModel(client: clients[1], conversationID: "group-six")
                await alices.appear()
                await bobs.appear()
                for text in ["Dinner?", "At 8"] {
                    alices.draft = text
                    await alices.send()
                }
                try await eventually { bobs.messages.count == 2 && bobs.unreadCount == 2 }
                let mine = try #require(alices.messages.last)
                #expect(alices.readers(of: mine.id) == .named([]), "nobody yet")
                #expect(alices.seenText(for: mine.id) == nil && alices.lastOwnStoredItemID == mine.id)

                for item in bobs.messages { bobs.rowAppeared(item.id) }
                try await eventually { bobs.unreadCount == 0 }
                try await eventually { alices.readers(of: mine.id) == .named(["bob"]) }
                #expect(alices.seenText(for: mine.id) == "Seen by Bob", "by the name the server gave at subscribed")
                await alices.disappear()
                await bobs.disappear()
            }
        }
    }

    @Test func theNewestBubbleSaysSentThenDeliveredThenSeen() async throws {
        try await TestServer.run { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                // Bob's client follows no conversation at first: no device of his has it; his subscribed carries it.
                try await expectSentThenDeliveredThenSeen(ConversationModel(client: clients[0], conversationID: "direct-alice-bob")) {
                    let bobs = ConversationModel(client: clients[1], conversationID: "direct-alice-bob")
                    await bobs.appear()
                    return bobs
                }
            }
        }
    }

    @Test func aBubbleOnScreenWhileTheAppIsInTheBackgroundIsReadOnlyAfterItComesBack() async throws {
        try await TestServer.run { server in
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let alice = await clients[0].conversation("direct-alice-bob")
                let bobs = ConversationModel(client: clients[1], conversationID: "direct-alice-bob")
                await bobs.appear()
                _ = try await alice.send("Are you up?")
                try await eventually { bobs.messages.count == 1 }
                await bobs.enterBackground()
                bobs.rowAppeared(try #require(bobs.messages.first).id)  // the phone is locked on the screen
                try await Task.sleep(for: .seconds(2))
                let back = Int64(Date().timeIntervalSince1970 * 1_000)
                await bobs.enterForeground()
                var mark: ReadMark?
                for await state in alice.readState {
                    mark = state.marks["bob"]
                    if mark != nil { break }
                }
                let read = try #require(mark)
                #expect(read.at >= back, "read after the app came back, not while in the background (\(read.at - back) ms)")
                await bobs.disappear()
                await alice.close()
            }
        }
    }
}
