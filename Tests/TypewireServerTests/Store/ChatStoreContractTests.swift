import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLiteNIO
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// One suite of store behaviour, run against SQLite always and against PostgreSQL when
/// TYPEWIRE_TEST_POSTGRES_URL names a server: the two stores must behave the same.
struct ChatStoreContract {
    /// Opens a store on a new, empty place; `reopen` opens the same place again.
    let open:
        @Sendable () async throws -> (
            store: any ChatStore, reopen: @Sendable () async throws -> any ChatStore, close: @Sendable (any ChatStore) async throws -> Void
        )

    static let sqlite = ChatStoreContract {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
        return (
            try await SQLiteChatStore.open(path: path), { try await SQLiteChatStore.open(path: path) },
            { try await $0.close() }
        )
    }

    static let postgres = ChatStoreContract {
        let url = try await TestDatabase.create()
        return (
            try await PostgresChatStore.open(url: url), { try await PostgresChatStore.open(url: url) },
            { try await $0.close() }
        )
    }

    static let alice = Identity(userID: "alice", name: "Alice")
    static let bob = Identity(userID: "bob", name: "Bob")

    func conversationsAndParticipants() async throws {
        let (store, _, close) = try await open()
        for user in [Self.alice, Self.bob] { try await store.upsertUser(user) }
        let group = try await store.createConversation(id: "g", kind: .group, title: "Plans", creator: "alice", members: ["bob", "alice"])
        #expect(group == Conversation(id: "g", kind: .group, title: "Plans", creator: "alice"))
        #expect(try await store.conversation("g") == group)
        #expect(try await store.conversation("missing") == nil)
        _ = try await store.createConversation(id: "d", kind: .direct, title: nil, creator: "bob", members: ["carol"])
        #expect(try await store.conversations(of: "bob").map(\.id) == ["d", "g"])
        #expect(
            try await store.participants(of: "g") == [
                ConversationMember(id: "alice", name: "Alice", online: false), ConversationMember(id: "bob", name: "Bob", online: false),
            ])
        #expect(try await store.addParticipant("carol", to: "g", limit: 3))
        #expect(try await !store.addParticipant("carol", to: "g", limit: 3), "twice is harmless")
        await #expect(throws: MembershipRefusal.full(limit: 3)) { try await store.addParticipant("dave", to: "g", limit: 3) }
        await #expect(throws: MembershipRefusal.directIsForTwo) { try await store.addParticipant("dave", to: "d", limit: 3) }
        await #expect(throws: MembershipRefusal.noConversation) { try await store.addParticipant("dave", to: "missing", limit: 3) }
        #expect(try await store.participants(of: "g").map(\.id) == ["alice", "bob", "carol"])
        #expect(try await store.removeParticipant("carol", from: "g"))
        #expect(try await !store.removeParticipant("carol", from: "g"))
        await #expect(throws: (any Error).self, "a conversation id is unique") {
            _ = try await store.createConversation(id: "g", kind: .group, title: nil, creator: "bob", members: [])
        }
        try await close(store)
    }

    func messagesAreStoredOnceOrderedPagedAndEditedBySenderOnly() async throws {
        let (store, _, close) = try await open()
        _ = try await store.createConversation(id: "d", kind: .direct, title: nil, creator: "alice", members: ["bob"])
        let first = try #require(
            try await store.storeMessage(conversation: "d", sender: Self.alice, clientMessageId: "m1", text: "Hi ✋", sentAt: 1_000))
        #expect(first.isNew && first.message.text == "Hi ✋" && first.message.senderName == "Alice" && first.message.clientMessageId == "m1")
        let retry = try #require(
            try await store.storeMessage(conversation: "d", sender: Self.alice, clientMessageId: "m1", text: "Hi ✋", sentAt: 2_000))
        #expect(!retry.isNew && retry.message == first.message, "a retry returns the stored message")
        let other = try #require(
            try await store.storeMessage(conversation: "d", sender: Self.bob, clientMessageId: "m1", text: "Hello", sentAt: 3_000))
        #expect(other.isNew, "client message ids are per sender")
        for index in 2...5 {
            _ = try await store.storeMessage(
                conversation: "d", sender: Self.alice, clientMessageId: "m\(index)", text: "\(index)", sentAt: 3_000 + Int64(index))
        }
        let recent = try await store.recentMessages(of: "d", limit: 3)
        #expect(recent.map(\.text) == ["3", "4", "5"], "the latest, oldest first")
        let page = try await store.messages(of: "d", before: recent[0].id, limit: 2)
        #expect(page.map(\.text) == ["Hello", "2"])
        #expect(try await store.messages(of: "d", before: nil, limit: 100).count == 6)
        #expect(try await store.editMessage(first.message.id, in: "d", by: "bob", text: "hijacked", editedAt: 9_000) == nil)
        let edited = try await store.editMessage(first.message.id, in: "d", by: "alice", text: "Hi!", editedAt: 9_000)
        #expect(edited?.text == "Hi!" && edited?.editedAt == 9_000 && edited?.id == first.message.id)
        #expect(try await store.editMessage("not-a-number", in: "d", by: "alice", text: "x", editedAt: 1) == nil)
        #expect(try await store.message(first.message.id, in: "d") == edited)
        #expect(try await store.message(first.message.id, in: "other") == nil)
        #expect(try await store.message("x", in: "d") == nil)
        try await close(store)
    }

    func recentMessagesAreChosenByTheirTextsSizes() async throws {
        let (store, _, close) = try await open()
        _ = try await store.createConversation(id: "d", kind: .direct, title: nil, creator: "alice", members: ["bob"])
        _ = try await store.createConversation(id: "e", kind: .direct, title: nil, creator: "alice", members: ["bob"])
        // UTF-8 bytes, not characters: "é" is two. Texts of 400, 300, 200 (100 "é") and 100 bytes, oldest first.
        for (index, text) in [
            String(repeating: "a", count: 400), String(repeating: "b", count: 300), String(repeating: "é", count: 100),
            String(repeating: "c", count: 100),
        ].enumerated() {
            _ = try await store.storeMessage(
                conversation: "d", sender: Self.alice, clientMessageId: "m\(index)", text: text, sentAt: Int64(index))
        }
        // A reply in a thread, the newest message of all: not in the main timeline's recent messages.
        let parent = try #require(try await store.recentMessages(of: "d", limit: 1).first)
        _ = try await store.storeMessage(
            conversation: "d", sender: Self.alice, clientMessageId: "reply", text: String(repeating: "r", count: 50), sentAt: 9,
            thread: parent.id, webhooks: nil)
        let sizes = { (messages: [ChatMessage]) in messages.map(\.text.utf8.count) }
        #expect(
            sizes(try await store.recentMessages(of: "d", limit: 10, withinBytes: 300)) == [200, 100], "the newest that fit, oldest first")
        #expect(sizes(try await store.recentMessages(of: "d", limit: 10, withinBytes: 600)) == [300, 200, 100])
        #expect(sizes(try await store.recentMessages(of: "d", limit: 2, withinBytes: 10_000)) == [200, 100], "the count still bounds them")
        #expect(sizes(try await store.recentMessages(of: "d", limit: 10, withinBytes: 50)) == [100], "at least the newest one")
        #expect(try await store.recentMessages(of: "e", limit: 10, withinBytes: 300).isEmpty)
        try await close(store)
    }

    func aClientMessageIDIsPerConversation() async throws {
        let (store, _, close) = try await open()
        for id in ["d", "e"] {
            _ = try await store.createConversation(id: id, kind: .direct, title: nil, creator: "alice", members: ["bob"])
        }
        let first = try #require(
            try await store.storeMessage(conversation: "d", sender: Self.alice, clientMessageId: "same", text: "to d", sentAt: 1))
        let second = try #require(
            try await store.storeMessage(conversation: "e", sender: Self.alice, clientMessageId: "same", text: "to e", sentAt: 2))
        #expect(second.isNew && second.message.id != first.message.id, "the same id in another conversation is another message")
        #expect(try await store.recentMessages(of: "e", limit: 10).map(\.text) == ["to e"])
        let retry = try #require(
            try await store.storeMessage(conversation: "e", sender: Self.alice, clientMessageId: "same", text: "to e", sentAt: 3))
        #expect(!retry.isNew && retry.message == second.message)
        try await close(store)
    }

    /// Creations (some failing, so rolled back) and sends from 20 tasks at once: every creation that did
    /// not collide succeeds, and every acknowledged send is in the history afterwards.
    func concurrentTransactionsAndSendsLoseNothing() async throws {
        let (store, _, close) = try await open()
        _ = try await store.createConversation(id: "d", kind: .direct, title: nil, creator: "alice", members: ["bob"])
        let outcomes = try await withThrowingTaskGroup(of: (created: Int, collided: Int, sent: [String]).self) { group in
            for task in 0..<20 {
                group.addTask {
                    var outcome = (created: 0, collided: 0, sent: [String]())
                    for round in 0..<3 {
                        // Every task also tries a conversation id that task 0 takes: those creations fail and roll back.
                        let id = round == 2 ? "shared-\(task % 5)" : "g-\(task)-\(round)"
                        do {
                            _ = try await store.createConversation(
                                id: id, kind: .group, title: "Group", creator: "alice", members: (0..<20).map { "member-\($0)" }
                            )
                            outcome.created += 1
                        } catch {
                            outcome.collided += 1
                        }
                        let clientMessageId = "m-\(task)-\(round)"
                        let stored = try await store.storeMessage(
                            conversation: "d", sender: Self.alice, clientMessageId: clientMessageId, text: clientMessageId, sentAt: 1)
                        if stored?.isNew == true { outcome.sent.append(clientMessageId) }
                    }
                    return outcome
                }
            }
            return try await group.reduce(into: [(created: Int, collided: Int, sent: [String])]()) { $0.append($1) }
        }
        let created: Int = outcomes.map(\.created).reduce(0, +)
        let collided: Int = outcomes.map(\.collided).reduce(0, +)
        #expect(created == 45, "every id that did not collide was created (40 and 5)")
        #expect(collided == 15)
        let history = Set(try await store.messages(of: "d", before: nil, limit: 1_000).compactMap(\.clientMessageId))
        #expect(history == Set(outcomes.flatMap(\.sent)) && history.count == 60, "no acknowledged message was rolled back")
        try await close(store)
    }

    func conversationsPutAndDeletedByTheServerAPI() async throws {
        let (store, _, close) = try await open()
        try await store.putUser(Identity(userID: "helper", name: "Helper", isBot: true))
        try await store.upsertUser(Identity(userID: "helper", name: nil))  // a token without the bot role
        #expect(try await store.user("helper") == StoredUser(name: "Helper", isBot: true, botSetByServerAPI: true, sharesTyping: true))
        try await store.putUser(Identity(userID: "helper", name: nil, isBot: false))
        try await store.upsertUser(Identity(userID: "helper", name: nil, isBot: true))  // a token with the bot role
        #expect(try await store.user("helper") == StoredUser(name: nil, isBot: false, botSetByServerAPI: true, sharesTyping: true))
        // A user the server API never touched: each token decides.
        try await store.upsertUser(Identity(userID: "claimer", name: "C", isBot: true))
        #expect(try await store.user("claimer")?.isBot == true)
        try await store.upsertUser(Identity(userID: "claimer", name: nil))
        #expect(try await store.user("claimer") == StoredUser(name: "C", isBot: false, sharesTyping: true), "the flag does not stick")

        let created = try await store.putConversation(
            id: "team", kind: .group, title: "Team", members: ["alice", "bob", "carol"], stopRule: .asker)
        #expect(
            created
                == ConversationChange(
                    conversation: Conversation(id: "team", kind: .group, title: "Team", creator: ""), created: true,
                    joined: ["alice", "bob", "carol"], left: []
                ))
        _ = try await store.storeMessage(conversation: "team", sender: Self.alice, clientMessageId: "c1", text: "hi", sentAt: 1)
        let same = try await store.putConversation(
            id: "team", kind: .group, title: "Team", members: ["carol", "bob", "alice"], stopRule: .asker)
        #expect(!same.created && same.joined.isEmpty && same.left.isEmpty, "putting the same members again changes nothing")
        await #expect(throws: MembershipRefusal.kindIsFixed(.group), "the kind stays") {
            _ = try await store.putConversation(id: "team", kind: .direct, title: nil, members: ["alice", "dave"], stopRule: .asker)
        }
        let changed = try await store.putConversation(id: "team", kind: .group, title: nil, members: ["alice", "dave"], stopRule: .members)
        #expect(
            changed
                == ConversationChange(
                    conversation: Conversation(id: "team", kind: .group, title: nil, creator: "", stopRule: .members), created: false,
                    joined: ["dave"], left: ["bob", "carol"]
                ), "the title, members and stop rule are replaced")
        #expect(try await store.conversation("team")?.stopRule == .members)
        #expect(try await store.conversations(of: "dave").map(\.stopRule) == [.members])
        #expect(try await store.participants(of: "team").map(\.id) == ["alice", "dave"])
        #expect(try await store.recentMessages(of: "team", limit: 10).map(\.text) == ["hi"])

        #expect(try await store.deleteConversation("team") == ["alice", "dave"])
        #expect(try await store.conversation("team") == nil)
        #expect(try await store.participants(of: "team").isEmpty)
        #expect(try await store.recentMessages(of: "team", limit: 10).isEmpty)
        #expect(try await store.deleteConversation("team") == [], "deleting twice is harmless")
        let again = try await store.putConversation(id: "team", kind: .group, title: nil, members: ["erin"], stopRule: .asker)
        #expect(again.created)
        #expect(try await store.recentMessages(of: "team", limit: 10).isEmpty, "a new conversation under the id starts empty")
        try await close(store)
    }

    func settingsBlocksAndReopening() async throws {
        let (store, reopen, close) = try await open()
        try await store.upsertUser(Self.alice)
        #expect(try await store.sharesTyping("alice"))
        #expect(try await store.sharesTyping("nobody"), "sharing is on unless turned off")
        try await store.setSharesTyping(false, for: "alice")
        _ = try await store.setBlocked(true, user: "bob", by: "alice", limit: 10)
        _ = try await store.setBlocked(true, user: "bob", by: "alice", limit: 10)
        _ = try await store.setBlocked(true, user: "carol", by: "alice", limit: 10)
        _ = try await store.setBlocked(false, user: "carol", by: "alice", limit: 10)
        // A user blocks at most `limit` users: past it a new block is refused; one already stored still answers yes.
        for index in 0..<2 { #expect(try await store.setBlocked(true, user: "u\(index)", by: "alice", limit: 3)) }
        #expect(try await !store.setBlocked(true, user: "u2", by: "alice", limit: 3), "bob, u0 and u1: the limit")
        #expect(try await store.setBlocked(true, user: "u1", by: "alice", limit: 3))
        #expect(try await store.setBlocked(false, user: "u0", by: "alice", limit: 3))
        #expect(try await store.setBlocked(false, user: "u1", by: "alice", limit: 3))
        try await store.upsertUser(Identity(userID: "alice", name: nil))  // a token without a name keeps the name
        _ = try await store.createConversation(id: "d", kind: .direct, title: nil, creator: "alice", members: ["bob"])
        _ = try await store.storeMessage(conversation: "d", sender: Self.alice, clientMessageId: "m1", text: "kept", sentAt: 1)
        try await close(store)
        let again = try await reopen()  // migrations run again and change nothing
        #expect(try await !again.sharesTyping("alice"))
        #expect(try await again.blockedUsers(of: "alice") == ["bob"])
        #expect(try await again.participants(of: "d").first { $0.id == "alice" }?.name == "Alice")
        #expect(try await again.recentMessages(of: "d", limit: 10).map(\.text) == ["kept"])
        try await close(again)
    }

    /// A handshake's read: the user as stored before (recorded if new or renamed), and both sides of their blocks;
    /// the same read without a write, and one block's existence.
    func aHandshakeRecordsTheUserAndReadsTheirBlocks() async throws {
        let (store, _, close) = try await open()
        let first = try await store.handshakeRecord(of: Self.alice)
        #expect(first == UserRecord(stored: nil, blocked: [], blockers: []))
        #expect(try await store.user("alice")?.name == "Alice", "a new user is recorded")
        _ = try await store.setBlocked(true, user: "bob", by: "alice", limit: 10)
        _ = try await store.setBlocked(true, user: "carol", by: "alice", limit: 10)
        _ = try await store.setBlocked(true, user: "alice", by: "dave", limit: 10)
        try await store.setSharesPresence(false, for: "alice")
        let renamed = try await store.handshakeRecord(of: Identity(userID: "alice", name: "Alice B."))
        #expect(renamed.stored?.name == "Alice", "what was stored before the handshake")
        #expect(renamed.stored?.sharesPresence == false)
        #expect(renamed.blocked == ["bob", "carol"])
        #expect(renamed.blockers == ["dave"])
        #expect(try await store.user("alice")?.name == "Alice B.", "a new name is recorded")
        #expect(try await store.isBlocked("bob", by: "alice"))
        #expect(try await !store.isBlocked("alice", by: "bob"), "a block is one way")
        #expect(try await store.isBlocked("alice", by: "dave"))
        let read = try await store.userRecord(of: "alice")
        #expect(read.stored?.name == "Alice B." && read.blocked == ["bob", "carol"] && read.blockers == ["dave"])
        #expect(try await store.userRecord(of: "frank") == UserRecord(stored: nil, blocked: [], blockers: []))
        #expect(try await store.user("frank") == nil, "reading a record writes nothing")
        let unnamed = try await store.handshakeRecord(of: Identity(userID: "erin", name: nil))
        #expect(unnamed.stored == nil)
        #expect(try await store.user("erin") != nil)
        #expect(try await store.handshakeRecord(of: Identity(userID: "erin", name: nil)).stored?.name == nil)
        try await close(store)
    }

    /// Members send while the server API deletes their conversation, which is then made again under the same id
    /// with someone else: every message is deleted with the conversation or refused, none reaches the new one.
    func messagesRacingADeleteDoNotSurviveIt() async throws {
        let (store, _, close) = try await open()
        let senders = ["alice", "bob", "carol", "dave"].map { Identity(userID: $0, name: $0.capitalized) }
        for trial in 0..<8 {
            let id = "race-\(trial)"
            _ = try await store.putConversation(id: id, kind: .group, title: nil, members: senders.map(\.userID), stopRule: .asker)
            let refused = try await withThrowingTaskGroup(of: Int.self) { group in
                for sender in senders {
                    group.addTask {
                        var refused = 0
                        for index in 0..<30 {
                            let stored = try await store.storeMessage(
                                conversation: id, sender: sender, clientMessageId: "\(index)", text: "\(index)", sentAt: 1)
                            refused += stored == nil ? 1 : 0
                        }
                        return refused
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(trial))
                    _ = try await store.deleteConversation(id)
                    return 0
                }
                return try await group.reduce(0, +)
            }
            _ = try await store.putConversation(id: id, kind: .group, title: nil, members: ["erin"], stopRule: .asker)
            let survivors = try await store.messages(of: id, before: nil, limit: 1_000)
            #expect(survivors.isEmpty, "trial \(trial): \(survivors.count) messages survived the delete (\(refused) were refused)")
        }
        let after = try await store.storeMessage(
            conversation: "race-0", sender: senders[0], clientMessageId: "late", text: "late", sentAt: 2)
        #expect(after == nil, "a former member's message to the conversation made again is refused")
        try await close(store)
    }

    /// A direct and a group conversation put under one id at once: one of them wins whole, the other is refused.
    func concurrentPutsKeepAConversationsRules() async throws {
        let (store, _, close) = try await open()
        for trial in 0..<24 {
            let id = "both-\(trial)"
            let outcomes = await withTaskGroup(of: Result<ConversationChange, any Error>.self) { group in
                for (kind, members) in [(Conversation.Kind.direct, ["a", "b"]), (.group, ["a", "b", "x", "y", "z"])] {
                    group.addTask {
                        do {
                            return .success(
                                try await store.putConversation(id: id, kind: kind, title: nil, members: members, stopRule: .asker))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: [Result<ConversationChange, any Error>]()) { $0.append($1) }
            }
            let refusals = outcomes.compactMap { if case .failure(let error) = $0 { error as? MembershipRefusal } else { nil } }
            #expect(refusals.count == 1, "trial \(trial): one put wins, the other is refused: \(outcomes)")
            let kind = try #require(try await store.conversation(id)?.kind)
            let members = try await store.participants(of: id).map(\.id)
            #expect(members.count == (kind == .direct ? 2 : 5), "trial \(trial): a \(kind) conversation of \(members)")
        }
        try await close(store)
    }

    /// Adds racing each other at the last free place: exactly one gets it.
    func concurrentAddsStopAtTheLimit() async throws {
        let (store, _, close) = try await open()
        _ = try await store.putConversation(id: "full", kind: .group, title: nil, members: (0..<9).map { "member-\($0)" }, stopRule: .asker)
        let added = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    do { return try await store.addParticipant("new-\(index)", to: "full", limit: 10) } catch let refusal
                        as MembershipRefusal
                    {
                        #expect(refusal == .full(limit: 10))
                        return false
                    }
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(added == 1)
        #expect(try await store.participants(of: "full").count == 10)
        try await close(store)
    }
}

@Suite("ChatStore on SQLite")
struct SQLiteChatStoreTests {
    let contract = ChatStoreContract.sqlite
    @Test func conversationsAndParticipants() async throws { try await contract.conversationsAndParticipants() }
    @Test func messages() async throws { try await contract.messagesAreStoredOnceOrderedPagedAndEditedBySenderOnly() }
    @Test func recentMessagesBySize() async throws { try await contract.recentMessagesAreChosenByTheirTextsSizes() }
    @Test func settingsBlocksAndReopening() async throws { try await contract.settingsBlocksAndReopening() }
    @Test func aHandshakeRecordsTheUserAndReadsTheirBlocks() async throws {
        try await contract.aHandshakeRecordsTheUserAndReadsTheirBlocks()
    }
    @Test func conversationsPutAndDeletedByTheServerAPI() async throws { try await contract.conversationsPutAndDeletedByTheServerAPI() }
    @Test func aClientMessageIDIsPerConversation() async throws { try await contract.aClientMessageIDIsPerConversation() }
    @Test func concurrentTransactionsAndSendsLoseNothing() async throws { try await contract.concurrentTransactionsAndSendsLoseNothing() }
    @Test func messagesRacingADeleteDoNotSurviveIt() async throws { try await contract.messagesRacingADeleteDoNotSurviveIt() }
    @Test func concurrentPutsKeepAConversationsRules() async throws { try await contract.concurrentPutsKeepAConversationsRules() }
    @Test func concurrentAddsStopAtTheLimit() async throws { try await contract.concurrentAddsStopAtTheLimit() }

    /// A file a newer release migrated further is refused at open with what to do, and left as it was.
    @Test func aNewerReleasesFileIsRefusedAndLeftAsItWas() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try await SQLiteChatStore.open(path: path)
        try await store.upsertUser(ChatStoreContract.alice)
        _ = try await store.createConversation(id: "d", kind: .direct, title: nil, creator: "alice", members: ["bob"])
        _ = try await store.storeMessage(conversation: "d", sender: ChatStoreContract.alice, clientMessageId: "m1", text: "kept", sentAt: 1)
        let known = try await store.database.transaction { connection in
            let known = try await connection.query("SELECT MAX(version) AS version FROM schema_version").first?.column("version")?.integer
            _ = try await connection.query("INSERT INTO schema_version (version) VALUES (?)", [.integer((known ?? 0) + 1)])
            return known ?? 0
        }
        try await store.close()
        await #expect {
            try await SQLiteChatStore.open(path: path).close()  // opened: closed, so that the failure is the test's alone
        } throws: { error in
            "\(error)".contains("version \(known + 1), newer than the \(known) this server") && error is StoreError
        }
        // Readable again once the newer release's row is gone (as a backup for this release would be).
        let storage = try await SQLiteConnection.open(storage: .file(path: path))
        _ = try await storage.query("DELETE FROM schema_version WHERE version > ?", [.integer(known)])
        try await storage.close()
        let again = try await SQLiteChatStore.open(path: path)
        #expect(try await again.recentMessages(of: "d", limit: 10).map(\.text) == ["kept"])
        try await again.close()
    }
}

@Suite(
    "ChatStore on PostgreSQL", .enabled(if: TestDatabase.serverURL != nil, Comment(rawValue: TestDatabase.skipReason)),
    .timeLimit(.minutes(1)))
struct PostgresChatStoreTests {
    let contract = ChatStoreContract.postgres
    @Test func conversationsAndParticipants() async throws { try await contract.conversationsAndParticipants() }
    @Test func messages() async throws { try await contract.messagesAreStoredOnceOrderedPagedAndEditedBySenderOnly() }
    @Test func recentMessagesBySize() async throws { try await contract.recentMessagesAreChosenByTheirTextsSizes() }
    @Test func settingsBlocksAndReopening() async throws { try await contract.settingsBlocksAndReopening() }
    @Test func aHandshakeRecordsTheUserAndReadsTheirBlocks() async throws {
        try await contract.aHandshakeRecordsTheUserAndReadsTheirBlocks()
    }
    @Test func conversationsPutAndDeletedByTheServerAPI() async throws { try await contract.conversationsPutAndDeletedByTheServerAPI() }
    @Test func aClientMessageIDIsPerConversation() async throws { try await contract.aClientMessageIDIsPerConversation() }
    @Test func concurrentTransactionsAndSendsLoseNothing() async throws { try await contract.concurrentTransactionsAndSendsLoseNothing() }
    @Test func messagesRacingADeleteDoNotSurviveIt() async throws { try await contract.messagesRacingADeleteDoNotSurviveIt() }
    @Test func concurrentPutsKeepAConversationsRules() async throws { try await contract.concurrentPutsKeepAConversationsRules() }
    @Test func concurrentAddsStopAtTheLimit() async throws { try await contract.concurrentAddsStopAtTheLimit() }

    /// postgres-nio warns for every query leased before its pool's `run()` began; a store that opens
    /// (and migrates) right after starting its pool would log three warnings at every node's start.
    @Test func openingLogsNoWarning() async throws {
        let records = LogRecords()
        let logger = Logger(label: "typewire.store-test") { _ in records }
        let store = try await PostgresChatStore.open(url: try await TestDatabase.create(), logger: logger)
        _ = try await store.participants(of: "nowhere")
        let warnings = records.messages(atLeast: .warning)
        await store.close()
        #expect(warnings.isEmpty, "\(warnings)")
    }

    /// A database a newer release migrated further is refused at open with what to do, and left as it was.
    @Test func aNewerReleasesDatabaseIsRefusedAndLeftAsItWas() async throws {
        let url = try await TestDatabase.create()
        let store = try await PostgresChatStore.open(url: url)
        try await store.upsertUser(ChatStoreContract.alice)
        _ = try await store.createConversation(id: "d", kind: .direct, title: nil, creator: "alice", members: ["bob"])
        _ = try await store.storeMessage(conversation: "d", sender: ChatStoreContract.alice, clientMessageId: "m1", text: "kept", sentAt: 1)
        await store.close()
        try await TestDatabase.execute("INSERT INTO schema_version (version) SELECT MAX(version) + 1 FROM schema_version", on: url)
        await #expect {
            try await PostgresChatStore.open(url: url).close()
        } throws: { error in
            "\(error)".contains("newer than the") && error is StoreError
        }
        try await TestDatabase.execute("DELETE FROM schema_version WHERE version = (SELECT MAX(version) FROM schema_version)", on: url)
        let again = try await PostgresChatStore.open(url: url)
        #expect(try await again.recentMessages(of: "d", limit: 10).map(\.text) == ["kept"])
        await again.close()
    }

    @Test func aURLThatCannotBeUsedSaysWhyWithoutItsPassword() async throws {
        await #expect {
            _ = try await PostgresChatStore.open(url: "mysql://root:secret@db/x")
        } throws: { error in
            "\(error)".contains("postgres://USER") && !"\(error)".contains("secret")
        }
    }
}

/// A log handler that keeps what it is given, for a test to read.
final class LogRecords: LogHandler, @unchecked Sendable {
    private let records = NIOLockedValueBox<[(Logger.Level, String)]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.withLockedValue { $0.append((event.level, "\(event.message)")) }
    }

    /// The messages logged at `level` or above, in order.
    func messages(atLeast level: Logger.Level) -> [String] {
        records.withLockedValue { $0.filter { $0.0 >= level }.map(\.1) }
    }
}
