import Foundation
import SQLiteNIO
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// A SQLite file or PostgreSQL database written by an earlier release opens with this one, migrated, and keeps
/// everything: each is made from a dump in `TestVectors/schema` (0.1.0's schema and rows: `sqlite-0.1.0.sql`
/// recorded with Python's `sqlite3.iterdump`, `postgres-0.1.0.sql` with `pg_dump --inserts`; the demo's
/// users and conversations, messages with an edit and a reply in a thread, a setting and a block; and 0.2.0's,
/// made by that release's server and `scripts/schema_fill.py` through `scripts/schema_dump.sh`, with read state,
/// delivered marks, last seen and webhook events waiting). A release that adds a migration adds its own dumps
/// beside them the same way (docs/DEVELOPMENT.md, "Releases").
@Suite("A store of an earlier release", .timeLimit(.minutes(1)))
struct SchemaUpgradeTests {
    private static let dumps = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("TestVectors/schema")

    /// The statements of a dump, each ending with `;` at the end of a line outside a string literal (a
    /// message's text may hold a newline).
    private static func statements(of dump: String) -> [String] {
        var statements: [String] = []
        var current = ""
        for line in dump.split(separator: "\n", omittingEmptySubsequences: false) where !(current.isEmpty && line.hasPrefix("--")) {
            current += current.isEmpty ? String(line) : "\n" + line
            if current.hasSuffix(";"), current.filter({ $0 == "'" }).count.isMultiple(of: 2) {
                statements.append(current)
                current = ""
            }
        }
        return statements
    }

    @Test func aFileOf010OpensMigratedAndKeepsEverything() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dump = try String(contentsOf: Self.dumps.appendingPathComponent("sqlite-0.1.0.sql"), encoding: .utf8)
        let statements = Self.statements(of: dump)
        #expect(statements.count == 83, "the dump's statements, a message's newline kept inside its text")
        let file = try await SQLiteConnection.open(storage: .file(path: path))
        for statement in statements { _ = try await file.query(statement) }
        try await file.close()

        let store = try await SQLiteChatStore.open(path: path)
        do {
            try await Self.expectEverything(in: store)
        } catch {
            try await store.close()  // closed before the failure is told: a store released open traps in sqlite-nio
            throw error
        }
        try await store.close()
    }

    @Test(.enabled(if: TestDatabase.serverURL != nil, Comment(rawValue: TestDatabase.skipReason)))
    func aDatabaseOf010OpensMigratedAndKeepsEverything() async throws {
        let url = try await TestDatabase.create()
        let dump = try String(contentsOf: Self.dumps.appendingPathComponent("postgres-0.1.0.sql"), encoding: .utf8)
        let statements = Self.statements(of: dump)
        #expect(statements.count == 99, "the dump's statements, a message's newline kept inside its text")
        for statement in statements { try await TestDatabase.execute(statement, on: url) }

        let store = try await PostgresChatStore.open(url: url)
        do {
            try await Self.expectEverything(in: store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test func aFileOf020OpensMigratedAndKeepsEverything() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dump = try String(contentsOf: Self.dumps.appendingPathComponent("sqlite-0.2.0.sql"), encoding: .utf8)
        let statements = Self.statements(of: dump)
        #expect(statements.count == 94, "the dump's statements, a message's newline kept inside its text")
        let file = try await SQLiteConnection.open(storage: .file(path: path))
        for statement in statements { _ = try await file.query(statement) }
        try await file.close()

        let store = try await SQLiteChatStore.open(path: path)
        do {
            try await Self.expectEverythingOf020(in: store, waitingEvents: 14)
        } catch {
            try await store.close()
            throw error
        }
        try await store.close()
    }

    @Test(.enabled(if: TestDatabase.serverURL != nil, Comment(rawValue: TestDatabase.skipReason)))
    func aDatabaseOf020OpensMigratedAndKeepsEverything() async throws {
        let url = try await TestDatabase.create()
        let dump = try String(contentsOf: Self.dumps.appendingPathComponent("postgres-0.2.0.sql"), encoding: .utf8)
        let statements = Self.statements(of: dump)
        #expect(statements.count == 108, "the dump's statements, a message's newline kept inside its text")
        for statement in statements { try await TestDatabase.execute(statement, on: url) }

        let store = try await PostgresChatStore.open(url: url)
        do {
            try await Self.expectEverythingOf020(in: store, waitingEvents: 12)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// The 0.2.0 store's contents (its read state among them), as the migrated store shows them, and what the
    /// later migrations added working on it.
    private static func expectEverythingOf020(in store: some ChatStore & WebhookOutbox, waitingEvents: Int) async throws {
        let direct = try await store.recentMessages(of: "direct-alice-bob", limit: 10)
        #expect(direct.map(\.text) == ["Are you coming tonight?", "Yes 🎉 — “on my way”\nsee you soon"])
        #expect(direct.map { $0.editedAt != nil } == [false, true])
        #expect(try await store.recentMessages(of: "group-six", limit: 10).map(\.text) == ["Hike on Sunday?", "Bring water"])
        #expect(try await store.messages(of: "group-six", thread: "3", before: nil, limit: 10).map(\.text) == ["Count me in"])
        // Read state: shared marks (bob's read was private), delivered marks, unread counts past them.
        let group = try await store.timelineMarks(in: "group-six", limit: 10)
        #expect(group.reads.map(\.user) == ["alice", "carol"] && group.reads.map(\.messageId) == ["5", "5"])
        #expect(group.delivered.map(\.user) == ["bob"] && group.delivered.map(\.messageId) == ["5"])
        let pair = try await store.timelineMarks(in: "direct-alice-bob", limit: 10)
        #expect(pair.reads.map(\.messageId) == ["1", "2"] && pair.delivered.map(\.user) == ["alice"])
        #expect(try await store.unreadCount(of: "bob", in: "group-six", thread: nil, limit: 10) == 1, "past his private read")
        #expect(try await store.unreadCount(of: "alice", in: "direct-alice-bob", thread: nil, limit: 10) == 1)
        // Settings, a block, last seen, the events waiting for a receiver.
        let dave = try await store.user("dave")
        #expect(dave?.readReceipts == .hide && dave?.sharesPresence == false)
        #expect(try await !store.sharesTyping("frank"))
        #expect(try await store.blockedUsers(of: "erin") == ["dave"])
        #expect(try await store.lastSeen(of: "alice") != nil)
        #expect(try await store.webhookBacklog().rows == waitingEvents)
        // What later releases added works on it: reminders' sweeps (14), a typing-only server's marks (15).
        _ = try await store.sweepUnreadReminders(sentAfter: 0, sentBefore: 1, limit: 10, endpoints: [], at: 2)
        let app = try await store.markAppRead(
            AppMessage(id: "fs-1", sentAt: 1_796_675_990_000), in: "group-six", by: "bob", at: 1_796_676_000_000, privately: false)
        #expect(app != .unchanged)
        let new = try await store.storeMessage(
            conversation: "group-six", sender: Identity(userID: "bob", name: "Bob"), clientMessageId: "g-4", text: "On my way",
            sentAt: 1_796_676_100_000)
        #expect(new.flatMap { Int($0.message.id) } == 6, "numbered after the old ones")
        #expect(try await store.unreadCount(of: "bob", in: "group-six", thread: nil, limit: 10) == 0, "his send read the rest")
    }

    /// The 0.1.0 store's contents, as the migrated store shows them, and new messages and reads after them.
    private static func expectEverything(in store: some ChatStore) async throws {
        let direct = try await store.recentMessages(of: "direct-alice-bob", limit: 10)
        #expect(direct.map(\.text) == ["Are you coming tonight?", "Yes 🎉 — “on my way”\nsee you"])
        #expect(direct.map(\.editedAt) == [nil, 1_764_770_470_000] && direct.map(\.senderName) == ["Alice", "Bob"])
        #expect(try await store.recentMessages(of: "group-six", limit: 10).map(\.text) == ["Hike on Sunday?"], "the reply is in its thread")
        #expect(try await store.messages(of: "group-six", thread: "18", before: nil, limit: 10).map(\.text) == ["Count me in"])
        #expect(try await store.recentMessages(of: "bot-clawd", limit: 10).first?.clientMessageId == "stream-r1")
        #expect(try await store.participants(of: "direct-alice-bob").map(\.id).sorted() == ["alice", "bob"])
        #expect(try await store.blockedUsers(of: "erin") == ["dave"])
        #expect(try await !store.sharesTyping("frank"))
        #expect(try await store.sharesTyping("alice"))
        // It takes new messages after the old ones.
        let new = try await store.storeMessage(
            conversation: "direct-alice-bob", sender: Identity(userID: "alice", name: "Alice"), clientMessageId: "c-5", text: "Now",
            sentAt: 1_764_770_700_000)
        #expect(new?.isNew == true && (new.flatMap { Int($0.message.id) } ?? 0) > 20)
        #expect(try await store.recentMessages(of: "direct-alice-bob", limit: 10).map(\.text).last == "Now")
        // Read state, which 0.1.0 did not keep: nothing of the old messages is read but what one answered.
        #expect(try await store.unreadCount(of: "bob", in: "direct-alice-bob", thread: nil, limit: 10) == 2)
        let read = try await store.markRead(
            #require(new?.message.id), in: "direct-alice-bob", by: "bob", at: 1_764_770_800_000, privately: false)
        #expect(read != .unchanged && read != .noSuchMessage)
        #expect(try await store.unreadCount(of: "bob", in: "direct-alice-bob", thread: nil, limit: 10) == 0)
    }
}
