import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireClient

/// A handle's read state against a real server: the same unread count on every device of a user, marks
/// others see, reads merged to at most one frame a second.
@Suite("ConversationHandle's read state against a real server", .timeLimit(.minutes(1)))
struct ReadStateHandleTests: ClientTesting {
    @Test func everyDeviceShowsTheServersCountAndOthersSeeTheMark() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "alice", "bob"], of: server) { _, chats in
                let (phone, laptop, bobChat) = (chats[0], chats[1], chats[2])
                var ids: [String] = []
                for text in ["Dinner?", "At 8", "Bring wine"] { ids.append(try await bobChat.send(text)) }
                let sent = ids
                for device in [phone, laptop] {
                    _ = try await first(device.readState) { $0.unreadCount == 3 && $0.marks["bob"]?.messageId == sent[2] }
                }

                // Read on the phone up to the second: both devices show one unread, by the server's word.
                await phone.markRead(sent[1])
                for device in [phone, laptop] { _ = try await first(device.readState) { $0.ownMark == sent[1] && $0.unreadCount == 1 } }
                let bobs = try await first(bobChat.readState) { $0.marks["alice"] != nil }
                #expect(bobs.marks["alice"]?.messageId == sent[1])
                #expect(bobs.readers(of: sent[1], sentBy: "bob", position: { sent.firstIndex(of: $0) }) == .named(["alice"]))
                #expect(bobs.readers(of: sent[2], sentBy: "bob", position: { sent.firstIndex(of: $0) }) == .named([]))

                // A device that comes later starts from the server's count: its recent messages are not news.
                try await withChats(["alice"], of: server) { _, later in
                    let messages = try await collect(later[0].messages, until: sent[2])
                    #expect(messages.count == 3)
                    let state = try await first(later[0].readState) { $0.ownMark != nil }
                    #expect(state.unreadCount == 1 && state.ownMark == sent[1])
                }

                // A send is a read: Alice's own message clears her count on every device.
                let answer = try await laptop.send("Yes!")
                for device in [phone, laptop] { _ = try await first(device.readState) { $0.unreadCount == 0 && $0.ownMark == answer } }
            }
        }
    }

    /// "Mark as unread" on one device: every device shows the messages from it on as unread, and the other
    /// member still sees the read they were told of.
    @Test func markUnreadOnOneDeviceIsTheCountOnEveryDevice() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "alice", "bob"], of: server) { _, chats in
                let (phone, laptop, bobChat) = (chats[0], chats[1], chats[2])
                var ids: [String] = []
                for text in ["Dinner?", "At 8", "Bring wine"] { ids.append(try await bobChat.send(text)) }
                let sent = ids
                await phone.markRead(sent[2])
                for device in [phone, laptop] { _ = try await first(device.readState) { $0.ownMark == sent[2] && $0.unreadCount == 0 } }
                _ = try await first(bobChat.readState) { $0.marks["alice"]?.messageId == sent[2] }

                await laptop.markUnread(from: sent[1])
                for device in [phone, laptop] { _ = try await first(device.readState) { $0.ownMark == sent[0] && $0.unreadCount == 2 } }
                try await withChats(["bob"], of: server) { _, later in
                    let state = try await first(later[0].readState) { $0.marks["alice"] != nil }
                    #expect(state.marks["alice"]?.messageId == sent[2], "bob's new device: her read stays as he was told")
                }
            }
        }
    }

    /// A message that reaches the other member's device is told back as delivered, and read once they
    /// read it: the sender's ticks.
    @Test func aMessageIsDeliveredWhenItReachesTheOthersDeviceThenRead() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { _, chats in
                let (aliceChat, bobChat) = (chats[0], chats[1])
                let sent = try await aliceChat.send("Dinner?")
                let others: Set<String> = ["bob"]
                _ = try await collect(bobChat.messages, until: sent)
                let delivered = try await first(aliceChat.readState) { $0.delivered["bob"]?.messageId == sent }
                #expect(delivered.progress(of: sent, others: others, position: { $0 == sent ? 0 : nil }) == .delivered)
                await bobChat.markRead(sent)
                let read = try await first(aliceChat.readState) { $0.marks["bob"]?.messageId == sent }
                #expect(read.progress(of: sent, others: others, position: { $0 == sent ? 0 : nil }) == .read)
            }
        }
    }

    /// Opens a conversation whose subscription makes one held read, and lets that read go.
    private func openChat(_ client: TypewireClient, releasing held: HeldHistoryStore) async throws -> ConversationHandle {
        let opening = Task { try await openChat(client) }
        await held.historyRead()
        held.release()
        return try await opening.value
    }

    /// A second handle's subscription on a socket that follows the conversation already: a message fanned
    /// out while its count is read reaches the socket before its `subscribed`, which does not count it; the
    /// client counts it again (``UncountedArrivals``).
    @Test func aMessageThatArrivesBeforeASecondHandlesSnapshotIsStillCounted() async throws {
        var held: HeldHistoryStore!
        try await TestServer.run(wrapStore: { store in
            held = HeldHistoryStore(store, holdingUnreadCounts: true)
            return held
        }) { server in
            try await withClients(["alice", "bob"], of: server) { clients in
                let aliceChat = try await openChat(clients[0], releasing: held)
                let bob = clients[1]
                let bobList = try await openChat(bob, releasing: held)
                let bobScreen = await bob.conversation(Self.direct)
                await held.historyRead()  // the second subscription's count is read, its `subscribed` not sent
                let first = try await aliceChat.send("While the screen opened")
                _ = try await collect(bobList.messages, until: first)  // on the socket before the screen's snapshot
                held.release()
                try await waitUntil(bob) { $0.uncounted.isEmpty }  // the snapshot came
                let second = try await aliceChat.send("And after")
                _ = try await collect(bobScreen.messages, until: second)
                let counts = await bob.unreadCounts(in: Self.direct)
                #expect(counts == [2, 2], "the snapshot reset the count to 0, then 1: \(counts)")
            }
        }
    }

    @Test func readsMadeWithinASecondAreOneFrameNowAndOneWithTheNewestAfter() async throws {
        try await TestServer.run { server in
            try await withChats(["alice", "bob"], of: server) { _, chats in
                let (aliceChat, bobChat) = (chats[0], chats[1])
                var sent: [String] = []
                for number in 1...5 { sent.append(try await bobChat.send("Line \(number)")) }
                _ = try await first(aliceChat.readState) { $0.unreadCount == 5 }
                let before = try await framesReceived("read", on: server)
                for id in sent { await aliceChat.markRead(id) }
                let newest = sent[4]
                _ = try await first(aliceChat.readState) { $0.ownMark == newest && $0.unreadCount == 0 }
                #expect(try await framesReceived("read", on: server) - before == 2, "the first read at once, the newest a second later")
            }
        }
    }
}

extension TypewireClient {
    /// The unread count of each view of a conversation, smallest first.
    fileprivate func unreadCounts(in conversation: String) -> [Int] {
        conversations[conversation]?.views.values.map(\.readState.unreadCount).sorted() ?? []
    }
}
