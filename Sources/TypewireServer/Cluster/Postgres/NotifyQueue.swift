import Logging

/// The events waiting for the PostgreSQL bus, in order, for the one task that sends them.
///
/// The queue is bounded (``capacity``): if PostgreSQL cannot take events as fast as the hub makes them,
/// the newest are dropped and counted rather than held without limit; the other nodes then miss them
/// (typing expires by its ttl there, and clients resync when they reconnect).
struct NotifyQueue: ClusterSink {
    /// The most events waiting for the bus.
    static let capacity = 10_000

    private let continuation: AsyncStream<ClusterEnvelope>.Continuation
    private let dropped: DropCount

    /// A queue and the sequence of envelopes the bus sends, in the order they were published.
    static func make(metrics: ClusterMetrics, logger: Logger) -> (queue: NotifyQueue, envelopes: AsyncStream<ClusterEnvelope>) {
        let (stream, continuation) = AsyncStream.makeStream(of: ClusterEnvelope.self, bufferingPolicy: .bufferingOldest(capacity))
        return (NotifyQueue(continuation: continuation, dropped: DropCount(logger: logger, counter: metrics.eventsDropped)), stream)
    }

    func publish(_ envelope: ClusterEnvelope) {
        if case .dropped = continuation.yield(envelope) { dropped.add() }
    }

    /// Every node hears every event on one channel.
    var routesByInterest: Bool { false }

    func interest(in conversation: String, following: Bool) {}

    func finish() {
        continuation.finish()
    }
}
