import Logging
import NIOConcurrencyHelpers
import NIOCore
import TypewireNATS

/// The hub's side of the NATS bus: events are batched by subject and published once per turn of an event
/// loop, each batch one sealed NATS message (as many events as fit in the server's payload limit); and the
/// conversations the node follows are its subscriptions.
///
/// At most ``capacity`` events wait; past that the newest are dropped and counted, as on the NOTIFY bus.
final class NATSClusterSink: ClusterSink {
    /// The most events waiting for the next flush.
    static let capacity = 10_000

    private let nats: NATSClient
    private let payloads: ClusterPayload
    private let metrics: ClusterMetrics
    private let dropped: DropCount
    private let eventLoop: any EventLoop
    private let logger: Logger
    private let state = NIOLockedValueBox(State())
    /// Presence changes of this node's users, in order, for the roster's table.
    let presenceChanges: AsyncStream<(user: String, online: Bool)>
    private let presenceSink: AsyncStream<(user: String, online: Bool)>.Continuation
    private let finishSignal: AsyncStream<Void>
    private let finishSink: AsyncStream<Void>.Continuation

    private struct State {
        var batches: [String: [ClusterEvent]] = [:]
        var subjects: [String] = []
        var waiting = 0
        var flushScheduled = false
        /// The subscription of each conversation followed.
        var subscriptions: [String: Int] = [:]
    }

    /// - Parameter payloads: Seals the batches, under this node's key.
    init(nats: NATSClient, payloads: ClusterPayload, metrics: ClusterMetrics, eventLoop: any EventLoop, logger: Logger) {
        self.nats = nats
        self.payloads = payloads
        self.metrics = metrics
        self.eventLoop = eventLoop
        self.logger = logger
        dropped = DropCount(logger: logger, counter: metrics.eventsDropped)
        (presenceChanges, presenceSink) = AsyncStream.makeStream()
        (finishSignal, finishSink) = AsyncStream.makeStream()
    }

    func publish(_ envelope: ClusterEnvelope) {
        if case .presence(let user, let online) = envelope.event { presenceSink.yield((user, online)) }
        let subject = ClusterSubjects.subject(of: envelope.event)
        let schedule = state.withLockedValue { state -> Bool? in
            guard state.waiting < Self.capacity else { return nil }
            if state.batches[subject] == nil { state.subjects.append(subject) }
            state.batches[subject, default: []].append(envelope.event)
            state.waiting += 1
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        guard let schedule else { return dropped.add() }
        metrics.eventsPublished.increment()
        if schedule { eventLoop.execute { self.flush() } }
    }

    var routesByInterest: Bool { true }

    func interest(in conversation: String, following: Bool) {
        state.withLockedValue { state in
            if following {
                guard state.subscriptions[conversation] == nil, let sid = nats.subscribe(to: ClusterSubjects.conversation(conversation))
                else { return }
                state.subscriptions[conversation] = sid
                metrics.subjects.increment()
            } else if let sid = state.subscriptions.removeValue(forKey: conversation) {
                nats.unsubscribe(sid)
                metrics.subjects.decrement()
            }
        }
    }

    /// The hub said its last.
    func finish() {
        presenceSink.finish()
        finishSink.finish()
    }

    /// Returns once the hub said its last (or the task is cancelled).
    func finished() async {
        for await _ in finishSignal {}
    }

    /// Publishes what waits now, on the loop the flushes run on (after any flush already due there).
    func flushNow() async {
        try? await eventLoop.submit { self.flush() }.get()
    }

    /// Hands each subject's batch to the NATS client, in the order the subjects first came.
    private func flush() {
        let (subjects, batches) = state.withLockedValue { state in
            defer {
                state.batches = [:]
                state.subjects = []
                state.waiting = 0
                state.flushScheduled = false
            }
            return (state.subjects, state.batches)
        }
        let limit = nats.maxPayload
        for subject in subjects {
            guard let events = batches[subject] else { continue }
            let (messages, tooLarge) = payloads.encodeBatch(events, subject: subject, limit: limit)
            if tooLarge > 0 {
                metrics.eventsTooLarge.increment(by: Int64(tooLarge))
                logger.error("cluster events larger than the NATS server's payload limit were dropped", metadata: ["events": "\(tooLarge)"])
            }
            for message in messages {
                switch nats.publish(message, to: subject) {
                case .queued: metrics.busMessagesPublished.increment()
                case .dropped, .invalid: dropped.add()
                }
            }
        }
    }
}
