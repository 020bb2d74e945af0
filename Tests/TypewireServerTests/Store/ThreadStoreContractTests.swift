import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// Threads in the store, the same on both: a reply keeps its parent, the main timeline's history leaves
/// replies out, and a thread is paged on its own.
extension ChatStoreContract {
    func repliesStayInTheirThread() async throws {
        let (store, reopen, close) = try await open()
        _ = try await store.createConversation(id: "g", kind: .group, title: nil, creator: "alice", members: ["bob"])
        let parent = try #require(
            try await store.storeMessage(conversation: "g", sender: Self.alice, clientMessageId: "p", text: "Parent", sentAt: 1)
        ).message
        var replies: [ChatMessage] = []
        for index in 0..<3 {
            let reply = try #require(
                try await store.storeMessage(
                    conversation: "g", sender: Self.bob, clientMessageId: "r\(index)", text: "Reply \(index)", sentAt: Int64(2 + index),
                    thread: parent.id, webhooks: nil))
            #expect(reply.isNew && reply.message.thread == parent.id)
            replies.append(reply.message)
        }
        _ = try await store.storeMessage(conversation: "g", sender: Self.alice, clientMessageId: "m2", text: "Main again", sentAt: 9)

        #expect(try await store.recentMessages(of: "g", limit: 10).map(\.text) == ["Parent", "Main again"])
        #expect(try await store.recentMessages(of: "g", limit: 10, withinBytes: 1_000).map(\.text) == ["Parent", "Main again"])
        #expect(try await store.messages(of: "g", before: nil, limit: 10).map(\.text) == ["Parent", "Main again"])
        #expect(try await store.messages(of: "g", thread: parent.id, before: nil, limit: 2).map(\.text) == ["Reply 1", "Reply 2"])
        #expect(try await store.messages(of: "g", thread: parent.id, before: replies[1].id, limit: 5).map(\.text) == ["Reply 0"])
        #expect(try await store.messages(of: "g", thread: "424242", before: nil, limit: 5).isEmpty)
        #expect(try await store.message(replies[0].id, in: "g")?.thread == parent.id)
        let edited = try await store.editMessage(replies[0].id, in: "g", by: "bob", text: "Reply 0, edited", editedAt: 20)
        #expect(edited?.thread == parent.id, "an edit keeps the thread")
        try await close(store)
        let reopened = try await reopen()
        #expect(try await reopened.messages(of: "g", thread: parent.id, before: nil, limit: 10).count == 3)
        try await close(reopened)
    }
}

@Suite("Threads on SQLite")
struct SQLiteThreadStoreTests {
    @Test func repliesStayInTheirThread() async throws { try await ChatStoreContract.sqlite.repliesStayInTheirThread() }
}

@Suite(
    "Threads on PostgreSQL", .enabled(if: TestDatabase.serverURL != nil, Comment(rawValue: TestDatabase.skipReason)),
    .timeLimit(.minutes(1)))
struct PostgresThreadStoreTests {
    @Test func repliesStayInTheirThread() async throws { try await ChatStoreContract.postgres.repliesStayInTheirThread() }
}
