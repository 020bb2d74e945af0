import Logging
import NIOCore
import ServiceLifecycle

/// The webhooks of one node: the events' way into the outbox (``events``, handed to the hub) and the
/// dispatcher that sends them, run as a swift-service-lifecycle `Service` until shutdown.
public struct WebhookService: Service {
    /// Where the hub and the routes report events.
    public let events: WebhookEvents
    private let dispatcher: WebhookDispatcher
    private let sender: WebhookSender

    /// Builds the parts.
    /// - Throws: ``ConfigurationError`` for endpoints, a secret or limits that cannot be used.
    init(
        configuration: ServerConfiguration.Webhooks, outbox: any WebhookOutbox, metrics: WebhookMetrics, logger: Logger,
        eventLoopGroup: any EventLoopGroup, now: @escaping @Sendable () -> Int64
    ) throws {
        try configuration.validate()
        let doorbell = WebhookDoorbell()
        let sender = WebhookSender(
            secret: configuration.secret ?? "", timeout: configuration.timeout, concurrency: configuration.concurrency,
            eventLoopGroup: eventLoopGroup)
        self.sender = sender
        events = WebhookEvents(
            configuration: configuration, outbox: outbox, metrics: metrics, logger: logger, doorbell: doorbell, now: now)
        dispatcher = WebhookDispatcher(
            configuration: configuration, outbox: outbox, sender: sender, metrics: metrics, logger: logger, doorbell: doorbell, now: now)
    }

    /// Sends until graceful shutdown; then (the hub has stopped) writes the events still in memory to the
    /// outbox, for the next start to send.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await dispatcher.run() }
        await events.finish()
        await sender.shutdown()
    }
}
