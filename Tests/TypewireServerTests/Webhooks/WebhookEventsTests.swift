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
        let clock = NIOLockedValueBox<Int64>(1_000)
        let now: @Sendable () -> Int64 = {
            clock.withLockedValue { time in
                time += 1
                return time
            }
        }
        try await withEvents(now: now) { events, outbox, store, metrics in
            let users = (0..<25).map { "user-\($0)" }  // one each: a user's presence events replace each other in the outbox
            for user in users { events.record(.presenceChanged(user: user, online: true)) }
            try await eventually { outbox.refusedWrites > 0 }
            #expect(Self.dropped(in: metrics) == 5, "past the 20 waiting, each event is dropped and counted")
            #expect(try await store.webhookBacklog().rows == 0)

            outbox.takesWrites()
            try await eventually { try await store.webhookBacklog().rows == 20 }
            let written = try await store.claimWebhooks(
                dueAt: .max, limit: 100, leaseUntil: .max, endpoints: events.configuration.endpoints)
            #expect(written.map { Self.user(in: $0.body) } == Array(users.prefix(20)), "the ones that waited, in the order they came")
            #expect(Self.dropped(in: metrics) == 5)
        }
    }

    /// At shutdown the events still in memory reach the outbox before the store closes: `finish` waits for
    /// the writer (here the store takes writes again only once it waits), and the outbox holds them all.
    @Test func atShutdownTheEventsInMemoryAreWrittenBeforeTheStoreCloses() async throws {
        try await withEvents { events, outbox, store, metrics in
            for user in ["ann", "ben", "cid"] { events.record(.presenceChanged(user: user, online: false)) }
            try await eventually { outbox.refusedWrites > 0 }
            async let dropped = events.finish(within: .seconds(30))
            outbox.takesWrites()
            #expect(await dropped == 0)
            #expect(try await store.webhookBacklog().rows == 3, "finish returned before the events were in the outbox")
        }
    }

    /// A store that cannot take them by the bound: `finish` gives up, counts them, and the writer stops trying
    /// (the store is about to close); later events are dropped, not written to a closed store.
    @Test func pastTheShutdownBoundTheEventsAreCountedAndTheWriterStops() async throws {
        try await withEvents { events, outbox, store, metrics in
            for user in ["ann", "ben"] { events.record(.presenceChanged(user: user, online: false)) }
            try await eventually { outbox.refusedWrites > 0 }
            #expect(await events.finish(within: .milliseconds(50)) == 2)
            #expect(Self.dropped(in: metrics) == 2)
            let refused = outbox.refusedWrites
            outbox.takesWrites()
            events.record(.presenceChanged(user: "dee", online: true))
            try await Task.sleep(for: WebhookEvents.storeRetryDelay * 2)  // what is checked: nothing more is written
            #expect(try await store.webhookBacklog().rows == 0 && outbox.refusedWrites <= refused + 1)
            #expect(Self.dropped(in: metrics) == 3)
        }
    }

    /// Events over a SQLite outbox behind ``UnwritableOutbox`` (refusing writes), with room for 20.
    private func withEvents(
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) },
        _ body: (WebhookEvents, UnwritableOutbox, SQLiteChatStore, HubMetrics) async throws -> Void
    ) async throws {
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
        let events = WebhookEvents(
            configuration: configuration, outbox: outbox, metrics: metrics.webhooks, logger: Logger(label: "test"),
            doorbell: WebhookDoorbell(), now: now)
        do {
            try await body(events, outbox, store, metrics)
        } catch {
            try? await store.close()
            throw error
        }
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

    func sweepUnreadReminders(sentAfter: Int64, sentBefore: Int64, limit: Int, endpoints: [String], at now: Int64) async throws -> Int {
        try await outbox.sweepUnreadReminders(sentAfter: sentAfter, sentBefore: sentBefore, limit: limit, endpoints: endpoints, at: now)
    }
}
