import Prometheus

/// The webhooks' figures in `/metrics`: the outbox's size and what became of each attempt.
public struct WebhookMetrics: Sendable {
    /// Deliveries in the outbox (every node's, read from the store each poll).
    let pending: Gauge
    /// Deliveries an endpoint took (a 2xx answer).
    let delivered: Counter
    /// Attempts that failed and will be tried again.
    let retried: Counter
    /// Deliveries given up (older than the retry policy's limit).
    let failed: Counter
    /// Events dropped before the outbox: the store could not take them and too many were waiting.
    let dropped: Counter
    /// The bytes of the deliveries in the outbox.
    let pendingBytes: Gauge
    /// Deliveries given up without a last attempt: for an endpoint no longer configured, older than the
    /// retry limit, or the oldest past the outbox's caps.
    let discarded: Counter
    /// Events not sent: past a conversation's `activity.changed` budget or a user's `message.edited` one.
    let overBudget: Counter
    /// Endpoints this node sends only probes to (their circuits are open).
    let failingEndpoints: Gauge

    init(registry: PrometheusCollectorRegistry) {
        func counter(_ name: String, _ help: String) -> Counter {
            registry.makeCounter(
                descriptor: MetricNameDescriptor(namespace: "typewire", metricName: name, unitName: "total", helpText: help))
        }
        pending = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "typewire", metricName: "webhook_pending", unitName: "",
                helpText: "Webhook deliveries waiting in the outbox (every node's)."))
        delivered = counter("webhook_delivered", "Webhook deliveries an endpoint took.")
        retried = counter("webhook_retried", "Webhook attempts that failed and will be tried again.")
        failed = counter("webhook_failed", "Webhook deliveries given up after the retry limit.")
        pendingBytes = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "typewire", metricName: "webhook_pending", unitName: "bytes",
                helpText: "The bytes of the webhook deliveries waiting in the outbox (every node's)."))
        failingEndpoints = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "typewire", metricName: "webhook_failing_endpoints", unitName: "",
                helpText: "Webhook endpoints this node only probes: they failed 5 attempts in a row."))
        discarded = counter(
            "webhook_discarded",
            "Webhook deliveries given up unsent: their endpoint is no longer configured, they are older than the retry limit, or the outbox was over its caps."
        )
        overBudget = counter(
            "webhook_over_budget",
            "Webhook events not sent: past a conversation's activity.changed budget or a user's message.edited budget.")
        dropped = counter("webhook_dropped", "Webhook events dropped before the outbox (the store could not take them in time).")
    }
}
