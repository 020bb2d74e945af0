import Prometheus
import TypewireCore

/// The hub's counters, in a Prometheus registry that `/metrics` renders.
///
/// Metric objects are created once, so counting on the hot path is an atomic add, not a lookup in the
/// registry.
public struct HubMetrics: Sendable {
    /// The registry `/metrics` renders.
    public let registry: PrometheusCollectorRegistry
    let connections: Gauge
    /// WebSockets open, from the upgrade until the channel is gone (welcomed or not, cut off or not); kept by ``OpenSockets``.
    let sockets: Gauge
    /// Sockets cut off for reading too slowly to follow.
    let cutOff: Counter
    let subscriptions: Gauge
    let fanOutDeliveries: Counter
    let droppedByRateLimit: Counter
    let relayLatency: DurationHistogram
    /// What crosses the cluster bus.
    public let cluster: ClusterMetrics
    /// The webhooks' outbox and deliveries.
    public let webhooks: WebhookMetrics
    /// The stages' timings, with ``ServerConfiguration/stageMetrics`` only.
    package let stages: StageTimings?
    private let framesIn: [String: Counter]
    private let framesOut: [String: Counter]

    /// Creates the metrics in a registry of their own.
    /// - Parameter timesStages: Whether to keep ``StageTimings`` too.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), timesStages: Bool = false) {
        self.registry = registry
        stages = timesStages ? StageTimings(registry: registry) : nil
        cluster = ClusterMetrics(registry: registry)
        webhooks = WebhookMetrics(registry: registry)
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "typewire", metricName: metric, unitName: unit, helpText: help)
        }
        connections = registry.makeGauge(descriptor: name("connections", "", "Open authenticated sockets."))
        sockets = registry.makeGauge(descriptor: name("sockets", "", "Open WebSockets, from the upgrade until the connection is gone."))
        cutOff = registry.makeCounter(
            descriptor: name(
                "sockets_cut_off", "total", "Sockets cut off because their unsent frames passed the bound (they read too slowly).")
        )
        subscriptions = registry.makeGauge(descriptor: name("subscriptions", "", "Socket subscriptions to conversations."))
        fanOutDeliveries = registry.makeCounter(
            descriptor: name("fanout_deliveries", "total", "Frames queued to subscribers by fan-out (activity, message, presence).")
        )
        droppedByRateLimit = registry.makeCounter(
            descriptor: name("frames_dropped", "total", "Frames dropped by rate limits."), labels: [("reason", "rate_limit")]
        )
        relayLatency = registry.makeDurationHistogram(
            descriptor: name(
                "relay_latency", "seconds", "From an activity frame's arrival at the hub to its update queued for every subscriber."),
            buckets: [
                .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
                .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(50),
            ]
        )
        let received = name("frames_in", "total", "Frames received, by type.")
        framesIn = Dictionary(
            uniqueKeysWithValues: (ClientFrame.typeNames + ["invalid"]).map { type in
                (type, registry.makeCounter(descriptor: received, labels: [("type", type)]))
            })
        let sent = name("frames_out", "total", "Frames sent, by type.")
        framesOut = Dictionary(
            uniqueKeysWithValues: ServerFrame.typeNames.map { type in
                (type, registry.makeCounter(descriptor: sent, labels: [("type", type)]))
            })
    }

    /// A counter of its own in the registry, `typewire_NAME_total`.
    func makeCounter(_ name: String, help: String) -> Counter {
        registry.makeCounter(descriptor: MetricNameDescriptor(namespace: "typewire", metricName: name, unitName: "total", helpText: help))
    }

    func received(_ type: String) {
        (framesIn[type] ?? framesIn["invalid"])?.increment()
    }

    func sent(_ type: String, count: Int = 1) {
        framesOut[type]?.increment(by: Int64(count))
    }
}
