import Foundation
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// The webhook outbox's behaviour, the same on both stores: claims are leases, outcomes move or remove a
/// delivery, concurrent claims never share a delivery, and a new message's event is written with it.
extension ChatStoreContract {
    private static func event(_ id: String, at time: Int64) -> WebhookEvent {
        WebhookEvent(id: id, createdAt: time, payload: .presenceChanged(user: "alice", online: true))
    }

    private static let both = ["http://a/hook", "http://b/hook"]

    private static func edit(_ message: String, text: String, at time: Int64) -> WebhookEvent {
        WebhookEvent(
            id: "evt_\(text)", createdAt: time,
            payload: .messageEdited(ChatMessage(conversation: "d", id: message, sender: "alice", senderName: nil, text: text, sentAt: 1)))
    }

    func outboxClaimsAreLeasesAndOutcomesMoveOrRemoveDeliveries() async throws {
        let (store, reopen, close) = try await open()
        let outbox = try #require(store as? any WebhookOutbox)
        #expect(try await outbox.nextWebhookDue() == nil)
        try await outbox.enqueueWebhook(Self.event("evt_1", at: 1_000), to: ["http://a/hook", "http://b/hook"])
        try await outbox.enqueueWebhook(Self.event("evt_2", at: 2_000), to: ["http://a/hook"])
        #expect(try await outbox.webhookBacklog().rows == 3)
        #expect(try await outbox.nextWebhookDue() == 1_000)

        #expect(
            try await outbox.claimWebhooks(dueAt: 999, limit: 10, leaseUntil: 5_000, endpoints: Self.both).isEmpty,
            "nothing is due before its time")
        let first = try await outbox.claimWebhooks(dueAt: 2_500, limit: 2, leaseUntil: 60_000, endpoints: Self.both)
        #expect(first.map(\.eventID) == ["evt_1", "evt_1"], "the longest due first, at most the limit")
        #expect(Set(first.map(\.endpoint)) == ["http://a/hook", "http://b/hook"])
        #expect(first.allSatisfy { $0.attempts == 0 && $0.createdAt == 1_000 && $0.type == .presenceChanged })
        #expect(first[0].body == Self.event("evt_1", at: 1_000).body())
        let second = try await outbox.claimWebhooks(dueAt: 2_500, limit: 10, leaseUntil: 60_000, endpoints: Self.both)
        #expect(second.map(\.eventID) == ["evt_2"], "a claimed delivery is not claimed again during its lease")
        #expect(try await outbox.claimWebhooks(dueAt: 59_999, limit: 10, leaseUntil: 90_000, endpoints: Self.both).isEmpty)

        try await outbox.webhooksDelivered([first[0].id])
        try await outbox.webhookFailed(first[1].id, attempts: 1, retryAt: 70_000)
        try await outbox.webhookFailed(second[0].id, attempts: 3, retryAt: nil)
        #expect(try await outbox.webhookBacklog().rows == 1, "delivered and given-up deliveries leave the outbox")
        #expect(try await outbox.nextWebhookDue() == 70_000)
        #expect(try await outbox.claimWebhooks(dueAt: 69_999, limit: 10, leaseUntil: 100_000, endpoints: Self.both).isEmpty)
        try await close(store)

        // The outbox is durable: a reopened store has the retry, with its attempts.
        let reopened = try #require(try await reopen() as? any WebhookOutbox)
        let retried = try await reopened.claimWebhooks(dueAt: 70_000, limit: 10, leaseUntil: 100_000, endpoints: Self.both)
        #expect(retried.map(\.eventID) == ["evt_1"])
        #expect(retried.map(\.attempts) == [1])
        try await close(reopened as! any ChatStore)
    }

    func aMessagesEditsReplaceEachOtherWhileTheyWaitAndClaimsKeepToTheEndpoints() async throws {
        let (store, _, close) = try await open()
        let outbox = try #require(store as? any WebhookOutbox)
        for index in 0..<50 {
            try await outbox.enqueueWebhook(Self.edit("m1", text: "edit \(index)", at: 1_000 + Int64(index)), to: Self.both)
        }
        try await outbox.enqueueWebhook(Self.edit("m2", text: "other", at: 2_000), to: ["http://a/hook"])
        try await outbox.enqueueWebhook(Self.event("evt_p1", at: 2_000), to: ["http://a/hook"])
        try await outbox.enqueueWebhook(Self.event("evt_p2", at: 2_000), to: ["http://a/hook"])
        #expect(try await outbox.webhookBacklog().rows == 5, "one edit per message and endpoint; other events each kept")

        let toB = try await outbox.claimWebhooks(dueAt: 5_000, limit: 10, leaseUntil: 60_000, endpoints: ["http://b/hook"])
        #expect(toB.map(\.eventID) == ["evt_edit 49"], "only the endpoints asked for, and only the last edit")
        #expect(toB.first?.body.contains("edit 49") == true)
        // An edit while the last is under way replaces it too: the attempt's outcome then changes nothing.
        try await outbox.enqueueWebhook(Self.edit("m1", text: "edit 50", at: 3_000), to: ["http://b/hook"])
        try await outbox.webhookFailed(toB[0].id, attempts: 1, retryAt: 4_000)
        let again = try await outbox.claimWebhooks(dueAt: 5_000, limit: 10, leaseUntil: 60_000, endpoints: ["http://b/hook"])
        #expect(again.map(\.eventID) == ["evt_edit 50"])
        #expect(again.first?.attempts == 0)
        try await close(store)
    }

    func trimmingGivesUpUnconfiguredExpiredAndTheOldestPastTheCaps() async throws {
        let (store, _, close) = try await open()
        let outbox = try #require(store as? any WebhookOutbox)
        try await outbox.enqueueWebhook(Self.event("evt_old", at: 100), to: ["http://a/hook"])
        try await outbox.enqueueWebhook(Self.event("evt_gone", at: 5_000), to: ["http://gone/hook"])
        for index in 0..<10 { try await outbox.enqueueWebhook(Self.event("evt_\(index)", at: 5_000 + Int64(index)), to: ["http://a/hook"]) }
        let body = Self.event("evt_0", at: 5_000).body().utf8.count
        let before = try await outbox.webhookBacklog()
        #expect(before.rows == 12 && before.oldest == 100)
        #expect(before.bytes >= 12 * (body - 4), "the bodies' bytes")

        let nothing = try await outbox.trimWebhooks(
            endpoints: ["http://a/hook", "http://gone/hook"], createdBefore: 100, maxRows: 100, maxBytes: 1 << 20)
        #expect(nothing == WebhookTrim(), "within every bound nothing is given up")
        let trim = try await outbox.trimWebhooks(endpoints: ["http://a/hook"], createdBefore: 1_000, maxRows: 8, maxBytes: 1 << 20)
        #expect(trim == WebhookTrim(unconfigured: 1, expired: 1, overCap: 2))
        let left = try await outbox.claimWebhooks(
            dueAt: .max, limit: 100, leaseUntil: .max, endpoints: ["http://a/hook", "http://gone/hook"])
        #expect(left.map(\.eventID).sorted() == (2..<10).map { "evt_\($0)" }, "the oldest went first")

        let bytes = try await outbox.trimWebhooks(endpoints: ["http://a/hook"], createdBefore: 0, maxRows: 100, maxBytes: 3 * body + 2)
        #expect(bytes.overCap == 5, "bytes bound it too: the newest three are left")
        #expect(try await outbox.webhookBacklog().rows == 3)
        try await close(store)
    }

    func concurrentClaimsNeverShareADelivery() async throws {
        let (store, _, close) = try await open()
        let outbox = try #require(store as? any WebhookOutbox)
        for index in 0..<1_200 { try await outbox.enqueueWebhook(Self.event("evt_\(index)", at: 1_000), to: ["http://a/hook"]) }
        let claims = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var mine: [Int64] = []
                    while true {
                        let claimed = try await outbox.claimWebhooks(dueAt: 2_000, limit: 37, leaseUntil: 60_000, endpoints: Self.both)
                        if claimed.isEmpty { return mine }
                        mine += claimed.map(\.id)
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claims.count == 1_200, "every delivery was claimed")
        #expect(Set(claims).count == 1_200, "and none twice")
        try await outbox.webhooksDelivered([])
        #expect(try await outbox.webhookBacklog().rows == 1_200)
        try await outbox.webhooksDelivered(claims)
        #expect(try await outbox.webhookBacklog().rows == 0, "every id, in statements of at most 500 where the store needs it")
        try await close(store)
    }

    func aNewMessagesEventIsWrittenWithItAndARetryWritesNone() async throws {
        let (store, _, close) = try await open()
        let outbox = try #require(store as? any WebhookOutbox)
        _ = try await store.createConversation(id: "d", kind: .direct, title: nil, creator: "alice", members: ["bob"])
        let hooks = MessageWebhooks(endpoints: ["http://a/hook"]) { message in
            WebhookEvent(id: "evt_\(message.clientMessageId ?? "")", createdAt: 5, payload: .messageCreated(message, offline: ["bob"]))
        }
        let stored = try #require(
            try await store.storeMessage(
                conversation: "d", sender: Self.alice, clientMessageId: "m1", text: "hi", sentAt: 5, thread: nil, webhooks: hooks))
        _ = try await store.storeMessage(
            conversation: "d", sender: Self.alice, clientMessageId: "m1", text: "hi", sentAt: 6, thread: nil, webhooks: hooks)
        #expect(
            try await store.storeMessage(
                conversation: "d", sender: Identity(userID: "mallory", name: nil), clientMessageId: "m2", text: "x", sentAt: 7,
                thread: nil, webhooks: hooks)
                == nil)
        let claimed = try await outbox.claimWebhooks(dueAt: 10, limit: 10, leaseUntil: 100, endpoints: Self.both)
        #expect(claimed.count == 1, "one event for the new message; none for its retry or a refused one")
        let body = try #require(claimed.first?.body)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let data = try #require(document["data"] as? [String: Any])
        let message = try #require(data["message"] as? [String: Any])
        #expect(message["id"] as? String == stored.message.id, "the event carries the id the store gave the message")
        #expect(data["offline"] as? [String] == ["bob"])
        try await close(store)
    }

    /// `unread.reminder`: each main-timeline message whose delay passed is swept once, naming the members
    /// (sender and bots aside) whose own mark is before it; a private read counts, a thread reply and a
    /// message found too late are not reminded.
    func unreadRemindersNameWhoHasNotReadEachMessageOnce() async throws {
        let (store, _, close) = try await open()
        let outbox = try #require(store as? any WebhookOutbox)
        try await store.upsertUser(Identity(userID: "clawd", name: "Clawd", isBot: true))
        _ = try await store.createConversation(id: "g", kind: .group, title: "g", creator: "alice", members: ["bob", "carol", "clawd"])
        func send(_ id: String, at time: Int64, thread: String? = nil) async throws -> String {
            try #require(
                try await store.storeMessage(
                    conversation: "g", sender: Self.alice, clientMessageId: id, text: id, sentAt: time, thread: thread, webhooks: nil)
            ).message.id
        }
        _ = try await send("old", at: 1_000)
        let first = try await send("first", at: 10_000)
        _ = try await send("reply", at: 11_000, thread: first)
        let second = try await send("second", at: 20_000)
        _ = try await store.markRead(first, in: "g", by: "bob", at: 12_000, privately: true)
        let hook = ["http://a/hook"]

        #expect(try await outbox.sweepUnreadReminders(sentAfter: 5_000, sentBefore: 15_000, limit: 10, endpoints: hook, at: 30_000) == 2)
        #expect(try await outbox.sweepUnreadReminders(sentAfter: 5_000, sentBefore: 15_000, limit: 10, endpoints: hook, at: 30_001) == 0)
        #expect(try await outbox.sweepUnreadReminders(sentAfter: 5_000, sentBefore: 30_000, limit: 10, endpoints: hook, at: 30_002) == 1)
        let claimed = try await outbox.claimWebhooks(dueAt: .max, limit: 10, leaseUntil: .max, endpoints: hook)
        let reminders = try claimed.map { delivery -> [String: Any] in
            let document = try #require(try JSONSerialization.jsonObject(with: Data(delivery.body.utf8)) as? [String: Any])
            #expect(document["type"] as? String == "unread.reminder")
            return try #require(document["data"] as? [String: Any])
        }
        #expect(reminders.map { $0["messageId"] as? String } == [first, second], "each message once, the old one not at all")
        #expect(reminders.map { $0["users"] as? [String] } == [["carol"], ["bob", "carol"]])
        #expect(reminders.allSatisfy { $0["sender"] as? String == "alice" && $0["conversation"] as? String == "g" })
        #expect(reminders.map { $0["sentAt"] as? Int } == [10_000, 20_000])
        try await close(store)
    }
}

@Suite("Webhook outbox on SQLite")
struct SQLiteWebhookOutboxTests {
    let contract = ChatStoreContract.sqlite
    @Test func claimsAreLeases() async throws { try await contract.outboxClaimsAreLeasesAndOutcomesMoveOrRemoveDeliveries() }
    @Test func concurrentClaims() async throws { try await contract.concurrentClaimsNeverShareADelivery() }
    @Test func aNewMessagesEvent() async throws { try await contract.aNewMessagesEventIsWrittenWithItAndARetryWritesNone() }
    @Test func editsCoalesce() async throws { try await contract.aMessagesEditsReplaceEachOtherWhileTheyWaitAndClaimsKeepToTheEndpoints() }
    @Test func trimming() async throws { try await contract.trimmingGivesUpUnconfiguredExpiredAndTheOldestPastTheCaps() }
    @Test func unreadReminders() async throws { try await contract.unreadRemindersNameWhoHasNotReadEachMessageOnce() }
}

@Suite(
    "Webhook outbox on PostgreSQL", .enabled(if: TestDatabase.serverURL != nil, Comment(rawValue: TestDatabase.skipReason)),
    .timeLimit(.minutes(1)))
struct PostgresWebhookOutboxTests {
    let contract = ChatStoreContract.postgres
    @Test func claimsAreLeases() async throws { try await contract.outboxClaimsAreLeasesAndOutcomesMoveOrRemoveDeliveries() }
    @Test func concurrentClaims() async throws { try await contract.concurrentClaimsNeverShareADelivery() }
    @Test func aNewMessagesEvent() async throws { try await contract.aNewMessagesEventIsWrittenWithItAndARetryWritesNone() }
    @Test func editsCoalesce() async throws { try await contract.aMessagesEditsReplaceEachOtherWhileTheyWaitAndClaimsKeepToTheEndpoints() }
    @Test func trimming() async throws { try await contract.trimmingGivesUpUnconfiguredExpiredAndTheOldestPastTheCaps() }
    @Test func unreadReminders() async throws { try await contract.unreadRemindersNameWhoHasNotReadEachMessageOnce() }
}
