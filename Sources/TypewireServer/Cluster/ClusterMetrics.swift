import Prometheus

/// What crosses the cluster bus, in `/metrics`: events sent and heard, and on a bus that routes by interest,
/// the proof that it does (``eventsUnfollowed`` stays at zero).
public struct ClusterMetrics: Sendable {
    /// Events this node handed to the bus.
    let eventsPublished: Counter
    /// Events dropped because the bus could not keep up.
    let eventsDropped: Counter
    /// Events not sent because they were larger than the bus carries (a streamed reply's part; the other
    /// nodes get the stored reply).
    let eventsTooLarge: Counter
    /// Bus messages sent (a NATS message carries several events under load; a NOTIFY one).
    let busMessagesPublished: Counter
    /// Events heard from other nodes and applied.
    let eventsReceived: Counter
    /// Events heard for a conversation no socket of this node follows: work a bus that routes by interest
    /// spares the node.
    let eventsUnfollowed: Counter
    /// Payloads dropped because they did not open under the cluster's key.
    let eventsRefused: Counter
    /// Payloads dropped because they were stale or heard before (``ClusterReplayWindow``).
    let eventsReplayed: Counter
    /// Conversations this node follows on a bus that routes by interest (its subscriptions there).
    let subjects: Gauge

    init(registry: PrometheusCollectorRegistry) {
        func counter(_ name: String, _ help: String) -> Counter {
            registry.makeCounter(
                descriptor: MetricNameDescriptor(namespace: "typewire", metricName: name, unitName: "total", helpText: help))
        }
        eventsPublished = counter("cluster_events_published", "Events this node handed to the cluster bus.")
        eventsDropped = counter("cluster_events_dropped", "Events for the other nodes dropped because the bus could not keep up.")
        eventsTooLarge = counter(
            "cluster_events_too_large", "Events for the other nodes not sent because they were larger than the bus carries.")
        busMessagesPublished = counter(
            "cluster_bus_messages_published", "Messages sent on the cluster bus (a NATS message carries several events).")
        eventsReceived = counter("cluster_events_received", "Events heard from other nodes.")
        eventsUnfollowed = counter(
            "cluster_events_unfollowed",
            "Events heard for a conversation no socket of this node follows (zero when the bus routes by interest).")
        eventsRefused = counter("cluster_events_refused", "Bus payloads dropped because they did not open under the cluster's key.")
        eventsReplayed = counter("cluster_events_replayed", "Bus payloads dropped because they were older than 30 s or heard before.")
        subjects = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "typewire", metricName: "cluster_subjects", unitName: "",
                helpText: "Conversations this node follows on a bus that routes by interest."))
    }
}
