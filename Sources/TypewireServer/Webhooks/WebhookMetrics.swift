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
        dropped = counter("webhook_dropped", "Webhook events dropped before the outbox (the store could not take them in time).")
    }
}
