import Logging
import NIOConcurrencyHelpers
import TypewireCore

/// Where the hub and the routes report what the app's backend is told of: each event goes to the durable
/// outbox, and the dispatcher is woken.
///
/// A new message's event is written by the store in the message's own transaction
/// (``messageWebhooks(offline:)``): durable exactly when the message is. The other events are written
/// here, in order, by one writer task, a few milliseconds after they happen; a crash in that window loses
/// them (docs/PROTOCOL.md says so). While the store cannot take them they wait in memory, at most
/// ``ServerConfiguration/Webhooks/maxUnwritten``; past it they are dropped and counted. Nothing here waits
/// for the store on the caller's side: a slow store or receiver never slows typing.
public final class WebhookEvents: Sendable {
    /// The webhook settings.
    public let configuration: ServerConfiguration.Webhooks
    private let outbox: any WebhookOutbox
    private let metrics: WebhookMetrics
    private let logger: Logger
    private let now: @Sendable () -> Int64
    private let doorbell: WebhookDoorbell
    private let activityBudgets: SharedRateLimiters<String>
    private let editBudgets: SharedRateLimiters<String>
    private let unwritten = NIOLockedValueBox(Unwritten())

    /// How long the writer waits before trying the store again after it failed.
    static let storeRetryDelay: Duration = .seconds(1)

    /// How long a graceful shutdown waits for the events still in memory to reach the outbox.
    static let shutdownWriteBound: Duration = .seconds(3)

    private struct Unwritten {
        var events: [WebhookEvent] = []
        var writing = false
        /// Set by ``WebhookEvents/finish(within:)`` once it stops waiting: nothing more is written.
        var finished = false
    }

    init(
        configuration: ServerConfiguration.Webhooks, outbox: any WebhookOutbox, metrics: WebhookMetrics, logger: Logger,
        doorbell: WebhookDoorbell, now: @escaping @Sendable () -> Int64
    ) {
        self.configuration = configuration
        self.outbox = outbox
        self.metrics = metrics
        self.logger = logger
        self.doorbell = doorbell
        self.now = now
        activityBudgets = SharedRateLimiters(configuration.activityEvents)
        editBudgets = SharedRateLimiters(configuration.editEvents)
    }

    /// Whether events of this type are sent.
    public func wants(_ type: WebhookEventType) -> Bool {
        configuration.events.contains(type)
    }

    /// The hook a store runs in the transaction of a new message: its `message.created` event, naming the
    /// members who had no socket open; nil if that event is not sent.
    func messageWebhooks(offline: [String]) -> MessageWebhooks? {
        guard wants(.messageCreated) else { return nil }
        let now = now
        return MessageWebhooks(endpoints: configuration.endpoints) { message in
            WebhookEvent(id: WebhookEvent.makeID(), createdAt: now(), payload: .messageCreated(message, offline: offline))
        }
    }

    /// A new message's event reached the outbox with its message: the dispatcher may send it now.
    func messageStored() {
        doorbell.ring()
    }

    /// Reports an event; it is written to the outbox soon, if its type is sent and it is within its budget
    /// (``ServerConfiguration/Webhooks/activityEvents``, ``ServerConfiguration/Webhooks/editEvents``).
    func record(_ payload: WebhookEvent.Payload) {
        guard wants(payload.type) else { return }
        let time = now()
        guard withinBudget(payload, now: time) else {
            metrics.overBudget.increment()
            return
        }
        let event = WebhookEvent(id: WebhookEvent.makeID(), createdAt: time, payload: payload)
        let startsWriter = unwritten.withLockedValue { unwritten -> Bool? in
            guard !unwritten.finished, unwritten.events.count < configuration.maxUnwritten else { return nil }
            unwritten.events.append(event)
            defer { unwritten.writing = true }
            return !unwritten.writing
        }
        guard let startsWriter else {
            metrics.dropped.increment()
            return
        }
        if startsWriter { Task { await writeAll() } }
    }

    /// Whether the event is within its budget: a conversation's `activity.changed`, a user's `message.edited`.
    private func withinBudget(_ payload: WebhookEvent.Payload, now: Int64) -> Bool {
        switch payload {
        case .activityChanged(let conversation, _, _, _): activityBudgets.allow(conversation, now: now)
        case .messageEdited(let message): editBudgets.allow(message.sender, now: now)
        default: true
        }
    }

    /// Shutdown, once the hub has told its last events: waits until every event in memory is in the outbox
    /// (where the next start sends it), at most `bound`; then no more are written (the store is about to
    /// close), and those still waiting are dropped, counted and logged. Returns how many were dropped.
    @discardableResult
    func finish(within bound: Duration = shutdownWriteBound) async -> Int {
        let deadline = ContinuousClock.now + bound
        // A poll of a few milliseconds, once, at shutdown: simpler than a continuation raced with a timer.
        while unwritten.withLockedValue({ $0.writing }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let dropped = unwritten.withLockedValue { unwritten in
            unwritten.finished = true
            defer { unwritten.events = [] }
            return unwritten.events.count
        }
        if dropped > 0 {
            metrics.dropped.increment(by: Int64(dropped))
            logger.error(
                "Shutting down: webhook events could not be written to the outbox in time and are lost",
                metadata: ["events": "\(dropped)"])
        }
        return dropped
    }

    /// Writes what waits, in order, until nothing does; waits and tries again while the store fails, until
    /// ``finish(within:)`` gives up.
    private func writeAll() async {
        while true {
            guard
                let event = unwritten.withLockedValue({ unwritten -> WebhookEvent? in
                    guard let first = unwritten.events.first, !unwritten.finished else {
                        unwritten.writing = false
                        return nil
                    }
                    return first
                })
            else { return }
            do {
                try await outbox.enqueueWebhook(event, to: configuration.endpoints)
                unwritten.withLockedValue { if !$0.events.isEmpty { $0.events.removeFirst() } }
                doorbell.ring()
            } catch {
                logger.storeFailed("a webhook event could not be written to the outbox; trying again", error: error)
                try? await Task.sleep(for: Self.storeRetryDelay)
            }
        }
    }
}
