/// A configuration the server cannot run with, and what to change.
public struct ConfigurationError: Error, CustomStringConvertible {
    private let message: String

    init(message: String) {
        self.message = message
    }

    /// A cluster without PostgreSQL.
    static let clusterNeedsPostgres = ConfigurationError(
        message: "A cluster shares one PostgreSQL database: give every node the same --postgres-url."
    )
    /// A cluster whose nodes have no secret to sign their bus events with.
    static let clusterNeedsSecret = ConfigurationError(
        message:
            "The nodes of a cluster sign their bus events with a secret they share: give every node the same --cluster-secret (or --jwt-secret)."
    )

    /// A webhook endpoint that is not an http or https URL.
    static func webhookURL(_ endpoint: String) -> ConfigurationError {
        ConfigurationError(message: "The webhook endpoint \"\(endpoint.prefix(200))\" is not an http:// or https:// URL.")
    }
    /// Webhook endpoints without a secret to sign deliveries with.
    static let webhookNeedsSecret = ConfigurationError(
        message:
            "Webhook deliveries are signed: give --webhook-secret (or TYPEWIRE_WEBHOOK_SECRET) a random secret of at least 32 bytes, and the receiver the same."
    )
    /// A store without a webhook outbox.
    static let webhooksNeedOutbox = ConfigurationError(
        message: "Webhooks need a store with an outbox: run with SQLite (--sqlite) or PostgreSQL (--postgres-url).")
    /// Webhook limits that leave nothing to do.
    static let webhookLimits = ConfigurationError(message: "The webhooks' concurrency and unwritten-event bound must be above zero.")
    static let webhookReminder = ConfigurationError(
        message: "The unread reminder's delay (--webhook-unread-after) must be between 1 second and 7 days.")

    public var description: String { message }
}
