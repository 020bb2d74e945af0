import Atomics
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Sends what the outbox holds: claims due deliveries (each with a lease, so that one node of a cluster
/// sends each), POSTs them at most ``ServerConfiguration/Webhooks/concurrency`` at a time, and records
/// each outcome: delivered (removed), failed (due again by ``WebhookRetryPolicy``, or given up).
///
/// It wakes when this node writes an event (``WebhookDoorbell``), when a delivery it knows of falls due,
/// and every ``ServerConfiguration/Webhooks/pollInterval`` for what it cannot know of (other nodes'
/// events, leases of a node that died). A store that fails is tried again at the next poll: nothing is
/// lost, the events wait in the outbox.
final class WebhookDispatcher: Sendable {
    private let configuration: ServerConfiguration.Webhooks
    private let outbox: any WebhookOutbox
    private let sender: WebhookSender
    private let metrics: WebhookMetrics
    private let logger: Logger
    private let doorbell: WebhookDoorbell
    private let now: @Sendable () -> Int64
    /// Deliveries the endpoints took that are still in the outbox (``recordDelivered()``).
    private let delivered = NIOLockedValueBox<[Int64]>([])

    /// How long a claimed delivery is this node's: past an attempt's timeout, so that a slow attempt is not
    /// sent by another node too; after a crash, what the node had claimed is sent again once it ends.
    var lease: Duration { configuration.timeout * 2 + .seconds(5) }

    init(
        configuration: ServerConfiguration.Webhooks, outbox: any WebhookOutbox, sender: WebhookSender, metrics: WebhookMetrics,
        logger: Logger, doorbell: WebhookDoorbell, now: @escaping @Sendable () -> Int64
    ) {
        self.configuration = configuration
        self.outbox = outbox
        self.sender = sender
        self.metrics = metrics
        self.logger = logger
        self.doorbell = doorbell
        self.now = now
    }

    /// Sends deliveries until the task is cancelled; then waits for the attempts under way.
    ///
    /// Deliveries are claimed in batches: an attempt that ends wakes the loop only once half the slots are
    /// free (or none is under way), and the deliveries taken since the last turn leave the outbox in one
    /// statement (``WebhookOutbox/webhooksDelivered(_:)``). A crash before that statement sends them again
    /// (at least once).
    func run() async {
        var waiter = doorbell.makeWaiter()
        let underWay = ManagedAtomic(0)
        await withDiscardingTaskGroup { attempts in
            var counts = PendingCountSchedule(intervalMilliseconds: configuration.pollInterval.wholeMilliseconds)
            while !Task.isCancelled {
                await recordDelivered()
                let time = now()
                let room = configuration.concurrency - underWay.load(ordering: .relaxed)
                var claimed: [WebhookDelivery] = []
                if room > 0 {
                    do {
                        claimed = try await outbox.claimWebhooks(dueAt: time, limit: room, leaseUntil: time + lease.wholeMilliseconds)
                    } catch {
                        logger.storeFailed("the webhook outbox could not be read; trying again", error: error)
                    }
                }
                for delivery in claimed {
                    underWay.wrappingIncrement(ordering: .relaxed)
                    attempts.addTask {
                        await self.attempt(delivery)
                        let left = underWay.wrappingDecrementThenLoad(ordering: .relaxed)
                        if left <= self.configuration.concurrency / 2 { self.doorbell.ring() }  // room for a batch
                    }
                }
                if counts.isDue(at: time) {
                    if let pending = try? await outbox.pendingWebhooks() { metrics.pending.set(Int64(pending)) }
                    counts.counted(started: time, ended: now())
                }
                // Full: an attempt that ends rings. Otherwise: until the next delivery falls due, or a poll.
                let wait = room > claimed.count ? await waitTime(from: now()) : configuration.pollInterval
                guard await waiter.wait(atMost: wait) else { break }
            }
            attempts.cancelAll()
        }
        await recordDelivered()
    }

    /// Removes the deliveries taken since the last call from the outbox, in one statement; kept for the
    /// next call if the store fails.
    private func recordDelivered() async {
        let ids = delivered.withLockedValue { ids in
            defer { ids = [] }
            return ids
        }
        guard !ids.isEmpty else { return }
        do {
            try await outbox.webhooksDelivered(ids)
        } catch {
            logger.storeFailed("delivered webhooks could not be removed from the outbox; trying again", error: error)
            delivered.withLockedValue { $0 += ids }
        }
    }

    /// How long to sleep: until the next delivery falls due, at most a poll interval.
    private func waitTime(from time: Int64) async -> Duration {
        let poll = configuration.pollInterval
        guard let due = try? await outbox.nextWebhookDue() else { return poll }
        return .milliseconds(max(0, min(due - time, poll.wholeMilliseconds)))
    }

    /// One attempt and its outcome in the outbox.
    private func attempt(_ delivery: WebhookDelivery) async {
        let outcome = await sender.send(delivery, now: now())
        do {
            switch outcome {
            case .delivered:
                delivered.withLockedValue { $0.append(delivery.id) }
                metrics.delivered.increment()
            case .failed(let status):
                let attempts = delivery.attempts + 1
                var generator = SystemRandomNumberGenerator()
                switch configuration.retry.afterFailure(attempts: attempts, createdAt: delivery.createdAt, now: now(), using: &generator) {
                case .retry(let at):
                    try await outbox.webhookFailed(delivery.id, attempts: attempts, retryAt: at)
                    metrics.retried.increment()
                    logger.debug(
                        "A webhook delivery failed; it is tried again",
                        metadata: [
                            "event": "\(delivery.eventID)", "status": "\(status.map(String.init) ?? "none")", "attempts": "\(attempts)",
                        ])
                case .giveUp:
                    try await outbox.webhookFailed(delivery.id, attempts: attempts, retryAt: nil)
                    metrics.failed.increment()
                    logger.error(
                        "A webhook delivery was given up after the retry limit",
                        metadata: ["event": "\(delivery.eventID)", "endpoint": "\(delivery.endpoint)", "attempts": "\(attempts)"])
                }
            }
        } catch {
            // The outcome is not recorded: the lease ends and the delivery is tried again (at least once).
            logger.storeFailed("a webhook delivery's outcome could not be recorded", error: error)
        }
    }
}
