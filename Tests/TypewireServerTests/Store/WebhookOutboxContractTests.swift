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

    func outboxClaimsAreLeasesAndOutcomesMoveOrRemoveDeliveries() async throws {
        let (store, reopen, close) = try await open()
        let outbox = try #require(store as? any WebhookOutbox)
        #expect(try await outbox.nextWebhookDue() == nil)
        try await outbox.enqueueWebhook(Self.event("evt_1", at: 1_000), to: ["http://a/hook", "http://b/hook"])
        try await outbox.enqueueWebhook(Self.event("evt_2", at: 2_000), to: ["http://a/hook"])
        #expect(try await outbox.pendingWebhooks() == 3)
        #expect(try await outbox.nextWebhookDue() == 1_000)

        #expect(try await outbox.claimWebhooks(dueAt: 999, limit: 10, leaseUntil: 5_000).isEmpty, "nothing is due before its time")
        let first = try await outbox.claimWebhooks(dueAt: 2_500, limit: 2, leaseUntil: 60_000)
        #expect(first.map(\.eventID) == ["evt_1", "evt_1"], "the longest due first, at most the limit")
        #expect(Set(first.map(\.endpoint)) == ["http://a/hook", "http://b/hook"])
        #expect(first.allSatisfy { $0.attempts == 0 && $0.createdAt == 1_000 && $0.type == .presenceChanged })
        #expect(first[0].body == Self.event("evt_1", at: 1_000).body())
        let second = try await outbox.claimWebhooks(dueAt: 2_500, limit: 10, leaseUntil: 60_000)
        #expect(second.map(\.eventID) == ["evt_2"], "a claimed delivery is not claimed again during its lease")
        #expect(try await outbox.claimWebhooks(dueAt: 59_999, limit: 10, leaseUntil: 90_000).isEmpty)

        try await outbox.webhooksDelivered([first[0].id])
        try await outbox.webhookFailed(first[1].id, attempts: 1, retryAt: 70_000)
        try await outbox.webhookFailed(second[0].id, attempts: 3, retryAt: nil)
        #expect(try await outbox.pendingWebhooks() == 1, "delivered and given-up deliveries leave the outbox")
        #expect(try await outbox.nextWebhookDue() == 70_000)
        #expect(try await outbox.claimWebhooks(dueAt: 69_999, limit: 10, leaseUntil: 100_000).isEmpty)
        try await close(store)

        // The outbox is durable: a reopened store has the retry, with its attempts.
        let reopened = try #require(try await reopen() as? any WebhookOutbox)
        let retried = try await reopened.claimWebhooks(dueAt: 70_000, limit: 10, leaseUntil: 100_000)
        #expect(retried.map(\.eventID) == ["evt_1"])
        #expect(retried.map(\.attempts) == [1])
        try await close(reopened as! any ChatStore)
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
                        let claimed = try await outbox.claimWebhooks(dueAt: 2_000, limit: 37, leaseUntil: 60_000)
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
        #expect(try await outbox.pendingWebhooks() == 1_200)
        try await outbox.webhooksDelivered(claims)
        #expect(try await outbox.pendingWebhooks() == 0, "every id, in statements of at most 500 where the store needs it")
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
        let claimed = try await outbox.claimWebhooks(dueAt: 10, limit: 10, leaseUntil: 100)
        #expect(claimed.count == 1, "one event for the new message; none for its retry or a refused one")
        let body = try #require(claimed.first?.body)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let data = try #require(document["data"] as? [String: Any])
        let message = try #require(data["message"] as? [String: Any])
        #expect(message["id"] as? String == stored.message.id, "the event carries the id the store gave the message")
        #expect(data["offline"] as? [String] == ["bob"])
        try await close(store)
    }
}

@Suite("Webhook outbox on SQLite")
struct SQLiteWebhookOutboxTests {
    let contract = ChatStoreContract.sqlite
    @Test func claimsAreLeases() async throws { try await contract.outboxClaimsAreLeasesAndOutcomesMoveOrRemoveDeliveries() }
    @Test func concurrentClaims() async throws { try await contract.concurrentClaimsNeverShareADelivery() }
    @Test func aNewMessagesEvent() async throws { try await contract.aNewMessagesEventIsWrittenWithItAndARetryWritesNone() }
}

@Suite(
    "Webhook outbox on PostgreSQL", .enabled(if: TestDatabase.serverURL != nil, Comment(rawValue: TestDatabase.skipReason)),
    .timeLimit(.minutes(1)))
struct PostgresWebhookOutboxTests {
    let contract = ChatStoreContract.postgres
    @Test func claimsAreLeases() async throws { try await contract.outboxClaimsAreLeasesAndOutcomesMoveOrRemoveDeliveries() }
    @Test func concurrentClaims() async throws { try await contract.concurrentClaimsNeverShareADelivery() }
    @Test func aNewMessagesEvent() async throws { try await contract.aNewMessagesEventIsWrittenWithItAndARetryWritesNone() }
}
