import Atomics
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Sends what the outbox holds: claims due deliveries (each with a lease, so that one node of a cluster
/// sends each), POSTs them at most ``ServerConfiguration/Webhooks/concurrency`` at a time, and records
/// each outcome: delivered (removed), failed (due again by ``WebhookRetryPolicy``, or given up).
///
/// An endpoint that keeps failing gets only probes (``WebhookCircuits``); deliveries to endpoints not
/// configured are never claimed, and are given up at start. With each count of the outbox the dispatcher
/// gives up what is older than the retry limit and the oldest past
/// ``ServerConfiguration/Webhooks/maxPending`` and ``ServerConfiguration/Webhooks/maxPendingBytes``,
/// counted and logged.
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
    private let circuits: NIOLockedValueBox<WebhookCircuits>

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
        circuits = NIOLockedValueBox(WebhookCircuits(retry: configuration.retry))
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
        await trim(atStart: true)
        await withDiscardingTaskGroup { attempts in
            var counts = PendingCountSchedule(intervalMilliseconds: configuration.pollInterval.wholeMilliseconds)
            var nextSweep = Int64.min
            while !Task.isCancelled {
                await recordDelivered()
                let time = now()
                let room = configuration.concurrency - underWay.load(ordering: .relaxed)
                var claimed: [(delivery: WebhookDelivery, probe: Bool)] = []
                if room > 0 {
                    let (closed, probes) = circuits.withLockedValue { ($0.closed(of: configuration.endpoints), $0.takeProbes(at: time)) }
                    claimed = await claim(room: room, closed: closed, probes: probes, at: time)
                }
                for (delivery, probe) in claimed {
                    underWay.wrappingIncrement(ordering: .relaxed)
                    circuits.withLockedValue { $0.started(delivery.endpoint) }
                    attempts.addTask {
                        await self.attempt(delivery, probe: probe)
                        let left = underWay.wrappingDecrementThenLoad(ordering: .relaxed)
                        if left <= self.configuration.concurrency / 2 { self.doorbell.ring() }  // room for a batch
                    }
                }
                if counts.isDue(at: time) {
                    counts.counted(at: time, took: await trim(atStart: false))
                }
                if configuration.events.contains(.unreadReminder), time >= nextSweep {
                    nextSweep = time + configuration.pollInterval.wholeMilliseconds
                    await sweepUnreadReminders(at: time)
                }
                // Full: an attempt that ends rings. Otherwise: until the next delivery or probe falls due, or a poll.
                let wait = room > claimed.count ? await waitTime(from: now()) : configuration.pollInterval
                guard await waiter.wait(atMost: wait) else { break }
            }
            attempts.cancelAll()
        }
        await recordDelivered()
    }

    /// Writes the reminders of the messages whose delay passed since the last sweep (any node's), at most
    /// ``reminderSweepLimit`` a poll; they are claimed and sent as the other deliveries are.
    private func sweepUnreadReminders(at time: Int64) async {
        let after = configuration.unreadReminderAfter.wholeMilliseconds
        do {
            let swept = try await outbox.sweepUnreadReminders(
                sentAfter: time - 2 * after, sentBefore: time - after, limit: Self.reminderSweepLimit, endpoints: configuration.endpoints,
                at: time)
            if swept > 0 { doorbell.ring() }
        } catch {
            logger.storeFailed("unread reminders could not be written to the outbox; trying again", error: error)
        }
    }

    /// The most messages one sweep for reminders reads.
    static let reminderSweepLimit = 500

    /// Claims up to `room` deliveries: the probes due first (one each, the endpoint's oldest whatever its
    /// due time), then what is due for the endpoints whose circuits are closed.
    private func claim(room: Int, closed: [String], probes: [String], at time: Int64) async -> [(delivery: WebhookDelivery, probe: Bool)] {
        let leaseUntil = time + lease.wholeMilliseconds
        var claimed: [(delivery: WebhookDelivery, probe: Bool)] = []
        for endpoint in probes {
            do {
                let probe = try await outbox.claimWebhooks(dueAt: .max, limit: 1, leaseUntil: leaseUntil, endpoints: [endpoint])
                if let first = probe.first {
                    claimed.append((first, true))
                } else {
                    circuits.withLockedValue { $0.probeFoundNothing(endpoint) }
                }
            } catch {
                circuits.withLockedValue { $0.probeNotClaimed(endpoint) }
                logger.storeFailed("the webhook outbox could not be read; trying again", error: error)
            }
        }
        guard room > claimed.count, !closed.isEmpty else { return claimed }
        do {
            let due = try await outbox.claimWebhooks(dueAt: time, limit: room - claimed.count, leaseUntil: leaseUntil, endpoints: closed)
            claimed += due.map { ($0, false) }
        } catch {
            logger.storeFailed("the webhook outbox could not be read; trying again", error: error)
        }
        return claimed
    }

    /// Gives up what the outbox must not keep (``WebhookOutbox/trimWebhooks(endpoints:createdBefore:maxRows:maxBytes:)``)
    /// and updates the figures; at start, says what was given up for endpoints no longer configured.
    ///
    /// - Returns: the milliseconds the counts took (not the trim), for ``PendingCountSchedule``.
    @discardableResult
    private func trim(atStart: Bool) async -> Int64 {
        var counting: Int64 = 0
        do {
            let time = now()
            let backlog = try await outbox.webhookBacklog()
            counting = now() - time
            let overCap = backlog.rows > configuration.maxPending || backlog.bytes > configuration.maxPendingBytes
            let oldest = time - configuration.retry.giveUpAfter.wholeMilliseconds
            var trim = WebhookTrim()
            if atStart || overCap || backlog.oldest.map({ $0 < oldest }) == true {
                trim = try await outbox.trimWebhooks(
                    endpoints: configuration.endpoints, createdBefore: oldest, maxRows: configuration.maxPending,
                    maxBytes: configuration.maxPendingBytes)
            }
            var left = backlog
            if trim.total > 0 {
                let recount = now()
                left = try await outbox.webhookBacklog()
                counting += now() - recount
            }
            metrics.pending.set(Int64(left.rows))
            metrics.pendingBytes.set(Int64(left.bytes))
            metrics.failingEndpoints.set(Int64(circuits.withLockedValue { $0.openCount }))
            guard trim.total > 0 else { return counting }
            metrics.discarded.increment(by: Int64(trim.total))
            logger.warning(
                "Webhook deliveries were given up unsent",
                metadata: [
                    "endpoint_no_longer_configured": "\(trim.unconfigured)", "older_than_retry_limit": "\(trim.expired)",
                    "over_outbox_caps": "\(trim.overCap)", "max_pending": "\(configuration.maxPending)",
                    "max_pending_bytes": "\(configuration.maxPendingBytes)",
                ])
        } catch {
            logger.storeFailed("the webhook outbox could not be counted; trying again", error: error)
        }
        return counting
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

    /// How long to sleep: until the next delivery or probe falls due, at most a poll interval.
    private func waitTime(from time: Int64) async -> Duration {
        let poll = configuration.pollInterval.wholeMilliseconds
        let probe = circuits.withLockedValue { $0.nextProbe } ?? .max
        let due = (try? await outbox.nextWebhookDue()) ?? .max
        let next = min(due, probe)
        return .milliseconds(next == .max ? poll : max(0, min(next.subtractingReportingOverflow(time).partialValue, poll)))
    }

    /// One attempt, its outcome in the outbox and in the endpoint's circuit.
    private func attempt(_ delivery: WebhookDelivery, probe: Bool) async {
        let outcome = await sender.send(delivery, now: now())
        var generator = SystemRandomNumberGenerator()
        let change = circuits.withLockedValue {
            $0.ended(delivery.endpoint, delivered: outcome == .delivered, probe: probe, now: now(), using: &generator)
        }
        switch change {
        case .opened:
            logger.warning(
                "A webhook endpoint failed \(WebhookCircuits.failuresToOpen) attempts in a row: only one delivery is tried at a time until it takes one",
                metadata: ["endpoint": "\(delivery.endpoint)"])
        case .closed: logger.info("A webhook endpoint took a delivery again", metadata: ["endpoint": "\(delivery.endpoint)"])
        case nil: break
        }
        do {
            switch outcome {
            case .delivered:
                delivered.withLockedValue { $0.append(delivery.id) }
                metrics.delivered.increment()
            case .failed(let status):
                let attempts = delivery.attempts + 1
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
