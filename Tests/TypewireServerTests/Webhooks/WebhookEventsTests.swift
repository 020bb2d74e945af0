import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import TypewireTesting

@testable import TypewireServer

@Suite("WebhookEvents: events wait in memory while the store cannot take them, within a bound", .timeLimit(.minutes(1)))
struct WebhookEventsTests {
    /// 25 events while the outbox's writes fail, with room for 20: the first 20 wait, the last 5 are dropped
    /// and counted; once the store takes writes again the 20 reach the real SQLite outbox, in order.
    @Test func pastTheBoundEventsAreDroppedAndCountedAndTheOthersAreWrittenInOrderOnceTheStoreIsBack() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await SQLiteChatStore.open(
            path: folder.appendingPathComponent("typewire.sqlite").path, logger: Logger(label: "test"))
        let outbox = UnwritableOutbox(store)
        var configuration = ServerConfiguration.Webhooks()
        configuration.endpoints = ["http://127.0.0.1:9/hook"]
        configuration.maxUnwritten = 20
        let metrics = HubMetrics()
        let clock = NIOLockedValueBox<Int64>(1_000)
        let events = WebhookEvents(
            configuration: configuration, outbox: outbox, metrics: metrics.webhooks, logger: Logger(label: "test"),
            doorbell: WebhookDoorbell(),
            now: {
                clock.withLockedValue { time in
                    time += 1
                    return time
                }
            })

        let users = (0..<25).map { "user-\($0)" }  // one each: a user's presence events replace each other in the outbox
        for user in users { events.record(.presenceChanged(user: user, online: true)) }
        try await eventually { outbox.refusedWrites > 0 }
        #expect(Self.dropped(in: metrics) == 5, "past the 20 waiting, each event is dropped and counted")
        #expect(try await store.webhookBacklog().rows == 0)

        outbox.takesWrites()
        try await eventually { try await store.webhookBacklog().rows == 20 }
        let written = try await store.claimWebhooks(dueAt: .max, limit: 100, leaseUntil: .max, endpoints: configuration.endpoints)
        #expect(written.map { Self.user(in: $0.body) } == Array(users.prefix(20)), "the ones that waited, in the order they came")
        #expect(Self.dropped(in: metrics) == 5)
        try await store.close()
    }

    private static func dropped(in metrics: HubMetrics) -> Double? {
        let line = metrics.registry.emitToString().split(separator: "\n").first { $0.hasPrefix("typewire_webhook_dropped_total ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    private static func user(in body: String) -> String? {
        let document = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return (document?["data"] as? [String: Any])?["user"] as? String
    }
}

/// The real outbox, whose writes of events fail until ``takesWrites()``: a disk that cannot be written.
private final class UnwritableOutbox: WebhookOutbox {
    struct WriteFailed: Error {}

    private let outbox: any WebhookOutbox
    private let state = NIOLockedValueBox((failing: true, refused: 0))

    init(_ outbox: any WebhookOutbox) { self.outbox = outbox }

    /// Writes refused so far.
    var refusedWrites: Int { state.withLockedValue { $0.refused } }

    /// From now on writes reach the store.
    func takesWrites() { state.withLockedValue { $0.failing = false } }

    func enqueueWebhook(_ event: WebhookEvent, to endpoints: [String]) async throws {
        let fails = state.withLockedValue { state in
            if state.failing { state.refused += 1 }
            return state.failing
        }
        if fails { throw WriteFailed() }
        try await outbox.enqueueWebhook(event, to: endpoints)
    }

    func claimWebhooks(dueAt now: Int64, limit: Int, leaseUntil: Int64, endpoints: [String]) async throws -> [WebhookDelivery] {
        try await outbox.claimWebhooks(dueAt: now, limit: limit, leaseUntil: leaseUntil, endpoints: endpoints)
    }

    func webhooksDelivered(_ ids: [Int64]) async throws { try await outbox.webhooksDelivered(ids) }

    func webhookFailed(_ id: Int64, attempts: Int, retryAt: Int64?) async throws {
        try await outbox.webhookFailed(id, attempts: attempts, retryAt: retryAt)
    }

    func nextWebhookDue() async throws -> Int64? { try await outbox.nextWebhookDue() }

    func webhookBacklog() async throws -> WebhookBacklog { try await outbox.webhookBacklog() }

    func trimWebhooks(endpoints: [String], createdBefore: Int64, maxRows: Int, maxBytes: Int) async throws -> WebhookTrim {
        try await outbox.trimWebhooks(endpoints: endpoints, createdBefore: createdBefore, maxRows: maxRows, maxBytes: maxBytes)
    }
}
