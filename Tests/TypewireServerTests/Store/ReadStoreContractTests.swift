import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// Read state in the store, the same on both: a watermark per member and timeline that only moves forward,
/// unread counts past it, a send that marks the sender's own message, private reads that the others do not
/// see, and marks of current members only.
extension ChatStoreContract {
    func watermarksOnlyMoveForward() async throws {
        let (store, reopen, close) = try await open()
        _ = try await store.createConversation(id: "g", kind: .group, title: nil, creator: "alice", members: ["bob", "carol"])
        let own = try #require(
            try await store.storeMessage(conversation: "g", sender: Self.alice, clientMessageId: "own", text: "mine", sentAt: 1))
        var ids: [String] = []
        for index in 0..<4 {
            let stored = try #require(
                try await store.storeMessage(conversation: "g", sender: Self.bob, clientMessageId: "m\(index)", text: "\(index)", sentAt: 2)
            )
            ids.append(stored.message.id)
        }
        let reply = try #require(
            try await store.storeMessage(
                conversation: "g", sender: Self.bob, clientMessageId: "r", text: "in a thread", sentAt: 3, thread: ids[0], webhooks: nil))
        func unread(_ user: String, thread: String? = nil, limit: Int = 999) async throws -> Int {
            try await store.unreadCount(of: user, in: "g", thread: thread, limit: limit)
        }
        func read(_ id: String, by user: String = "alice", at time: Int64, privately: Bool = false) async throws -> ReadOutcome {
            try await store.markRead(id, in: "g", by: user, at: time, privately: privately)
        }

        #expect(try await unread("alice") == 4, "bob's four; her own and the thread's not")
        #expect(try await unread("bob") == 0, "his send marked alice's earlier message read")
        #expect(try await unread("carol", limit: 3) == 3, "counted up to the limit")
        #expect(
            try await read(ids[2], at: 10) == .moved(.init(user: "alice", messageId: ids[2], at: 10), thread: nil, own: true, shared: true))
        #expect(try await unread("alice") == 1)
        #expect(try await read(ids[1], at: 11) == .unchanged, "never back")
        #expect(try await read(ids[2], at: 12) == .unchanged, "the same mark again changes nothing")
        #expect(try await read(own.message.id, at: 12) == .unchanged, "her own message: her send marked it")
        // A thread has a mark of its own; the main timeline's does not move with it.
        #expect(try await unread("alice", thread: ids[0]) == 1)
        #expect(
            try await read(reply.message.id, at: 13)
                == .moved(.init(user: "alice", messageId: reply.message.id, at: 13), thread: ids[0], own: true, shared: true))
        #expect(try await unread("alice", thread: ids[0]) == 0)
        #expect(try await unread("alice") == 1)
        // A private read clears her count; the mark the others see stays, until a shared read catches it up.
        #expect(
            try await read(ids[3], at: 14, privately: true)
                == .moved(.init(user: "alice", messageId: ids[3], at: 14), thread: nil, own: true, shared: false))
        #expect(try await unread("alice") == 0)
        #expect(try await store.timelineMarks(in: "g", limit: 10).reads.first == .init(user: "alice", messageId: ids[2], at: 10))
        #expect(try await read(ids[3], at: 15, privately: true) == .unchanged)
        #expect(
            try await read(ids[3], at: 16)
                == .moved(.init(user: "alice", messageId: ids[3], at: 16), thread: nil, own: false, shared: true),
            "her own mark was there already")
        #expect(
            try await store.timelineMarks(in: "g", limit: 10).reads == [
                .init(user: "alice", messageId: ids[3], at: 16), .init(user: "bob", messageId: ids[3], at: 2),
            ], "bob's mark is his own last message, which he sent at 2")
        // How many read each of the newest messages, their sender aside: carol's private read is not counted.
        _ = try await read(ids[1], by: "carol", at: 17)
        _ = try await read(ids[2], by: "carol", at: 17, privately: true)
        #expect(
            try await store.readCounts(in: "g", thread: nil, messages: 5) == [
                .init(messageId: ids[3], readers: 1), .init(messageId: ids[2], readers: 1), .init(messageId: ids[1], readers: 2),
                .init(messageId: ids[0], readers: 2), .init(messageId: own.message.id, readers: 2),
            ])
        #expect(try await store.readCounts(in: "g", thread: nil, messages: 2).map(\.messageId) == [ids[3], ids[2]], "the newest only")
        #expect(try await store.readCounts(in: "g", thread: ids[0], messages: 5) == [.init(messageId: reply.message.id, readers: 1)])
        #expect(try await read("424242", at: 17) == .noSuchMessage)
        #expect(try await read("not-a-number", at: 17) == .noSuchMessage)
        #expect(
            try await store.markRead(ids[3], in: "elsewhere", by: "alice", at: 17, privately: false) == .noSuchMessage,
            "a message of another conversation")
        _ = try await read(ids[3], by: "carol", at: 18)
        #expect(try await store.timelineMarks(in: "g", limit: 1).reads.map(\.user) == ["alice"], "at most the limit, by user id")
        try await close(store)

        let reopened = try await reopen()
        #expect(
            try await reopened.timelineMarks(in: "g", limit: 10).reads.map(\.user) == ["alice", "bob", "carol"], "kept across a restart")
        #expect(try await reopened.removeParticipant("carol", from: "g"))
        #expect(try await reopened.timelineMarks(in: "g", limit: 10).reads.map(\.user) == ["alice", "bob"], "only current members' marks")
        _ = try await reopened.deleteConversation("g")
        _ = try await reopened.createConversation(id: "g", kind: .group, title: nil, creator: "alice", members: ["carol"])
        #expect(try await reopened.timelineMarks(in: "g", limit: 10).reads.isEmpty, "a conversation made again under the id starts unread")
        try await close(reopened)
    }

    func markUnreadMovesOnlyTheMembersOwnMarkBack() async throws {
        let (store, _, close) = try await open()
        _ = try await store.createConversation(id: "g", kind: .group, title: nil, creator: "alice", members: ["bob"])
        var ids: [String] = []
        for index in 0..<4 {
            let stored = try #require(
                try await store.storeMessage(conversation: "g", sender: Self.bob, clientMessageId: "m\(index)", text: "\(index)", sentAt: 1)
            )
            ids.append(stored.message.id)
        }
        let reply = try #require(
            try await store.storeMessage(
                conversation: "g", sender: Self.bob, clientMessageId: "r", text: "in a thread", sentAt: 2, thread: ids[0], webhooks: nil))
        func unread(thread: String? = nil) async throws -> Int {
            try await store.unreadCount(of: "alice", in: "g", thread: thread, limit: 999)
        }
        func markUnread(_ id: String, at time: Int64, in conversation: String = "g") async throws -> UnreadOutcome {
            try await store.markUnread(from: id, in: conversation, by: "alice", at: time)
        }
        #expect(try await markUnread(ids[1], at: 3) == .unchanged, "nothing read yet: it is unread already")
        _ = try await store.markRead(ids[3], in: "g", by: "alice", at: 4, privately: false)
        _ = try await store.markRead(reply.message.id, in: "g", by: "alice", at: 4, privately: false)
        #expect(try await unread() == 0)
        #expect(try await markUnread(ids[2], at: 5) == .moved(to: ids[1], thread: nil), "back to the message before it")
        #expect(try await unread() == 2)
        #expect(try await unread(thread: ids[0]) == 0, "the thread's mark stays")
        #expect(
            try await store.timelineMarks(in: "g", limit: 10).reads.first { $0.user == "alice" }
                == .init(user: "alice", messageId: ids[3], at: 4),
            "the mark the others see stays")
        #expect(try await markUnread(ids[3], at: 6) == .unchanged, "past her mark already")
        #expect(try await markUnread(ids[0], at: 7) == .moved(to: nil, thread: nil), "from the first message: nothing read")
        #expect(try await unread() == 4)
        #expect(
            try await store.markRead(ids[1], in: "g", by: "alice", at: 8, privately: false)
                == .moved(.init(user: "alice", messageId: ids[1], at: 8), thread: nil, own: true, shared: false),
            "it moves forward again from there; the others' mark was past it")
        #expect(try await markUnread(reply.message.id, at: 9) == .moved(to: nil, thread: ids[0]), "a thread's own mark")
        #expect(try await unread(thread: ids[0]) == 1)
        #expect(try await unread() == 2, "the main timeline's stays")
        #expect(try await markUnread("424242", at: 10) == .noSuchMessage)
        #expect(try await markUnread("not-a-number", at: 10) == .noSuchMessage)
        #expect(try await markUnread(ids[1], at: 10, in: "elsewhere") == .noSuchMessage, "a message of another conversation")
        try await close(store)
    }

    func deliveredMarksOnlyMoveForwardAndShowOnlyForThoseWhoShare() async throws {
        let (store, reopen, close) = try await open()
        _ = try await store.createConversation(id: "g", kind: .group, title: nil, creator: "alice", members: ["bob", "carol"])
        var ids: [String] = []
        for index in 0..<3 {
            let stored = try #require(
                try await store.storeMessage(
                    conversation: "g", sender: Self.alice, clientMessageId: "m\(index)", text: "\(index)", sentAt: 1))
            ids.append(stored.message.id)
        }
        let reply = try #require(
            try await store.storeMessage(
                conversation: "g", sender: Self.alice, clientMessageId: "r", text: "in a thread", sentAt: 2, thread: ids[0], webhooks: nil))
        func deliver(_ id: String, to user: String = "bob", at time: Int64, in conversation: String = "g") async throws -> DeliveredOutcome
        {
            try await store.markDelivered(id, in: conversation, by: user, at: time)
        }
        #expect(try await deliver(ids[1], at: 10) == .moved(.init(user: "bob", messageId: ids[1], at: 10), thread: nil))
        #expect(try await deliver(ids[0], at: 11) == .unchanged, "never back")
        #expect(try await deliver(ids[1], at: 12) == .unchanged, "the same mark again changes nothing")
        #expect(try await store.unreadCount(of: "bob", in: "g", thread: nil, limit: 10) == 3, "received is not read")
        #expect(
            try await store.timelineMarks(in: "g", limit: 10)
                == .init(
                    reads: [.init(user: "alice", messageId: ids[2], at: 1)], delivered: [.init(user: "bob", messageId: ids[1], at: 10)]))
        #expect(
            try await deliver(reply.message.id, at: 13) == .moved(.init(user: "bob", messageId: reply.message.id, at: 13), thread: ids[0]),
            "a thread's own mark")
        _ = try await store.markRead(ids[0], in: "g", by: "bob", at: 14, privately: false)
        let marks = try await store.timelineMarks(in: "g", limit: 10)
        #expect(marks.reads.map(\.user) == ["alice", "bob"] && marks.delivered == [.init(user: "bob", messageId: ids[1], at: 10)])
        // One who hides their reading shows no delivered mark either, and none is kept for later.
        try await store.setReadReceipts(.hide, for: "carol")
        #expect(try await deliver(ids[2], to: "carol", at: 15) == .unchanged)
        try await store.setReadReceipts(.share, for: "carol")
        #expect(try await store.timelineMarks(in: "g", limit: 10).delivered.map(\.user) == ["bob"])
        #expect(try await deliver("424242", at: 16) == .noSuchMessage)
        #expect(try await deliver(ids[2], at: 16, in: "elsewhere") == .noSuchMessage, "a message of another conversation")
        try await close(store)
        let reopened = try await reopen()
        #expect(try await reopened.timelineMarks(in: "g", limit: 10).delivered.map(\.messageId) == [ids[1]], "kept across a restart")
        try await close(reopened)
    }

    func aUserWhoHidesTheirReadingShowsNoMark() async throws {
        let (store, _, close) = try await open()
        _ = try await store.createConversation(id: "g", kind: .group, title: nil, creator: "alice", members: ["bob", "carol"])
        let first = try #require(
            try await store.storeMessage(conversation: "g", sender: Self.bob, clientMessageId: "m0", text: "0", sentAt: 1))
        #expect(try await store.markRead(first.message.id, in: "g", by: "alice", at: 2, privately: false) != .unchanged)
        try await store.setReadReceipts(.hide, for: "carol")
        try await store.setReadReceipts(.reciprocal, for: "alice")
        #expect(try await store.user("carol")?.readReceipts == .hide)
        #expect(try await store.user("alice")?.readReceipts == .reciprocal)
        #expect(try await store.timelineMarks(in: "g", limit: 10).reads.map(\.user) == ["bob"], "alice's earlier mark is hidden too")
        #expect(
            try await store.markRead(first.message.id, in: "g", by: "carol", at: 3, privately: false)
                == .moved(.init(user: "carol", messageId: first.message.id, at: 3), thread: nil, own: true, shared: false))
        let carols = try #require(
            try await store.storeMessage(
                conversation: "g", sender: Identity(userID: "carol", name: nil), clientMessageId: "c0", text: "mine", sentAt: 4))
        #expect(try await store.unreadCount(of: "carol", in: "g", thread: nil, limit: 10) == 0, "her own mark moved")
        #expect(
            try await store.readCounts(in: "g", thread: nil, messages: 2) == [
                .init(messageId: carols.message.id, readers: 0), .init(messageId: first.message.id, readers: 0),
            ], "no one who hides is counted")
        try await store.setReadReceipts(.share, for: "carol")
        #expect(try await store.timelineMarks(in: "g", limit: 10).reads.map(\.user) == ["bob"], "what she read while hiding stays unseen")
        try await close(store)
    }
}

/// A typing-only server's read state, over the app's own message ids ordered by the time the app gave.
extension ChatStoreContract {
    func appMarksMoveForwardByTheAppsTime() async throws {
        let (store, reopen, close) = try await open()
        _ = try await store.createConversation(id: "g", kind: .group, title: nil, creator: "alice", members: ["bob", "carol"])
        func read(_ id: String, sentAt: Int64, thread: String? = nil, by user: String = "bob", at time: Int64, privately: Bool = false)
            async throws -> ReadOutcome
        {
            try await store.markAppRead(.init(id: id, sentAt: sentAt, thread: thread), in: "g", by: user, at: time, privately: privately)
        }
        func deliver(_ id: String, sentAt: Int64, by user: String = "bob", at time: Int64) async throws -> DeliveredOutcome {
            try await store.markAppDelivered(.init(id: id, sentAt: sentAt), in: "g", by: user, at: time)
        }
        #expect(
            try await read("Zq9", sentAt: 2_000, at: 10)
                == .moved(.init(user: "bob", messageId: "Zq9", at: 10), thread: nil, own: true, shared: true))
        #expect(try await read("Aa1", sentAt: 1_000, at: 11) == .unchanged, "an earlier message of the app's: never back")
        #expect(try await read("Zq9", sentAt: 2_000, at: 12) == .unchanged, "the same message again")
        #expect(
            try await read("a", sentAt: 2_000, at: 13)
                == .moved(.init(user: "bob", messageId: "a", at: 13), thread: nil, own: true, shared: true),
            "as late, and after in byte order ('a' > 'Z')")
        #expect(try await read("Z0", sentAt: 2_000, at: 14) == .unchanged, "as late, and before in byte order")
        #expect(
            try await read("p", sentAt: 3_000, at: 15, privately: true)
                == .moved(.init(user: "bob", messageId: "p", at: 15), thread: nil, own: true, shared: false))
        #expect(
            try await read("p", sentAt: 3_000, at: 16)
                == .moved(.init(user: "bob", messageId: "p", at: 16), thread: nil, own: false, shared: true),
            "shown once read without the flag")
        #expect(
            try await read("t1", sentAt: 500, thread: "Zq9", at: 17)
                == .moved(.init(user: "bob", messageId: "t1", at: 17), thread: "Zq9", own: true, shared: true), "a thread's own mark")
        #expect(try await deliver("d", sentAt: 4_000, at: 18) == .moved(.init(user: "bob", messageId: "d", at: 18), thread: nil))
        #expect(try await deliver("c", sentAt: 3_500, at: 19) == .unchanged, "never back")
        try await store.setReadReceipts(.hide, for: "carol")
        #expect(
            try await read("x", sentAt: 5_000, by: "carol", at: 20)
                == .moved(.init(user: "carol", messageId: "x", at: 20), thread: nil, own: true, shared: false))
        #expect(try await deliver("x", sentAt: 5_000, by: "carol", at: 21) == .unchanged, "one who hides shows no delivered mark")
        _ = try await read("y", sentAt: 5_000, by: "dave", at: 22)  // not a member
        #expect(
            try await store.appTimelineMarks(in: "g", limit: 10)
                == .init(reads: [.init(user: "bob", messageId: "p", at: 16)], delivered: [.init(user: "bob", messageId: "d", at: 18)]),
            "the main timeline's marks of members who share")
        #expect(try await store.timelineMarks(in: "g", limit: 10) == .init(), "apart from the marks over the server's own ids")
        try await close(store)
        let reopened = try await reopen()
        #expect(try await reopened.appTimelineMarks(in: "g", limit: 10).reads.map(\.messageId) == ["p"], "kept across a restart")
        _ = try await reopened.deleteConversation("g")
        _ = try await reopened.createConversation(id: "g", kind: .group, title: nil, creator: "alice", members: ["bob"])
        #expect(try await reopened.appTimelineMarks(in: "g", limit: 10) == .init(), "a deleted conversation's marks go with it")
        try await close(reopened)
    }
}

extension ChatStoreContract {
    func lastSeenOnlyMovesForwardAndCarriesThePresenceSetting() async throws {
        let (store, reopen, close) = try await open()
        _ = try await store.createConversation(id: "g", kind: .group, title: nil, creator: "alice", members: ["bob", "carol"])
        try await store.recordLastSeen(of: "alice", at: 120_000)
        try await store.recordLastSeen(of: "alice", at: 60_000)  // another node, told late
        try await store.recordLastSeen(of: "bob", at: 180_000)
        try await store.setSharesPresence(false, for: "bob")
        try await store.recordLastSeen(of: "dave", at: 60_000)  // not a member
        #expect(
            try await store.lastSeen(in: "g") == [
                "alice": .init(at: 120_000, sharesPresence: true), "bob": .init(at: 180_000, sharesPresence: false),
            ], "carol was never seen")
        #expect(try await store.lastSeen(of: "carol") == nil)
        try await close(store)
        let reopened = try await reopen()
        #expect(try await reopened.lastSeen(of: "alice") == .init(at: 120_000, sharesPresence: true), "kept across a restart")
        try await close(reopened)
    }
}

@Suite("Read state on SQLite")
struct SQLiteReadStoreTests {
    @Test func lastSeenOnlyMovesForward() async throws {
        try await ChatStoreContract.sqlite.lastSeenOnlyMovesForwardAndCarriesThePresenceSetting()
    }
    @Test func watermarksOnlyMoveForward() async throws { try await ChatStoreContract.sqlite.watermarksOnlyMoveForward() }
    @Test func appMarksMoveForwardByTheAppsTime() async throws { try await ChatStoreContract.sqlite.appMarksMoveForwardByTheAppsTime() }
    @Test func markUnreadMovesOnlyTheMembersOwnMarkBack() async throws {
        try await ChatStoreContract.sqlite.markUnreadMovesOnlyTheMembersOwnMarkBack()
    }
    @Test func deliveredMarksOnlyMoveForwardAndShowOnlyForThoseWhoShare() async throws {
        try await ChatStoreContract.sqlite.deliveredMarksOnlyMoveForwardAndShowOnlyForThoseWhoShare()
    }
    @Test func aUserWhoHidesTheirReadingShowsNoMark() async throws {
        try await ChatStoreContract.sqlite.aUserWhoHidesTheirReadingShowsNoMark()
    }
}

@Suite(
    "Read state on PostgreSQL", .enabled(if: TestDatabase.serverURL != nil, Comment(rawValue: TestDatabase.skipReason)),
    .timeLimit(.minutes(1)))
struct PostgresReadStoreTests {
    @Test func lastSeenOnlyMovesForward() async throws {
        try await ChatStoreContract.postgres.lastSeenOnlyMovesForwardAndCarriesThePresenceSetting()
    }
    @Test func watermarksOnlyMoveForward() async throws { try await ChatStoreContract.postgres.watermarksOnlyMoveForward() }
    @Test func appMarksMoveForwardByTheAppsTime() async throws { try await ChatStoreContract.postgres.appMarksMoveForwardByTheAppsTime() }
    @Test func markUnreadMovesOnlyTheMembersOwnMarkBack() async throws {
        try await ChatStoreContract.postgres.markUnreadMovesOnlyTheMembersOwnMarkBack()
    }
    @Test func deliveredMarksOnlyMoveForwardAndShowOnlyForThoseWhoShare() async throws {
        try await ChatStoreContract.postgres.deliveredMarksOnlyMoveForwardAndShowOnlyForThoseWhoShare()
    }
    @Test func aUserWhoHidesTheirReadingShowsNoMark() async throws {
        try await ChatStoreContract.postgres.aUserWhoHidesTheirReadingShowsNoMark()
    }
}
