extension ServerConfiguration {
    /// Events sent to the app's backend (`--webhook-url`); none without an endpoint.
    public struct Webhooks: Sendable {
        /// The URLs each event is POSTed to (`http` or `https`); each gets every event.
        public var endpoints: [String] = []
        /// The secret deliveries are signed with (``WebhookSignature``); required with an endpoint, at least
        /// 32 bytes.
        public var secret: String?
        /// The types sent. Default every type but `activity.changed`.
        public var events: Set<WebhookEventType> = WebhookEventType.defaults
        /// `activity.changed` events allowed per conversation, when sent. Default 1 a second, 5 at once;
        /// past it a change is not sent (the next one carries the state as it is then).
        public var activityEvents = RateBudget(rate: 1, burst: 5)
        /// `message.edited` events allowed per editing user; past it an edit's event is not sent (the
        /// message as stored stays the truth) and counted. Default 2 a second, 20 at once. Edits of one
        /// message replace each other while they wait, whatever this budget.
        public var editEvents = RateBudget(rate: 2, burst: 20)
        /// The most deliveries the outbox keeps (every node's, in a cluster); past it the oldest are given
        /// up, counted and logged. Default 100 000.
        public var maxPending = 100_000
        /// The most bytes of bodies the outbox keeps; past it the oldest are given up. Default 128 MiB.
        public var maxPendingBytes = 128 << 20
        /// When failed deliveries are tried again, and given up.
        public var retry = WebhookRetryPolicy()
        /// How long one attempt may take, connecting included, before it counts as failed. Default 10 s.
        public var timeout: Duration = .seconds(10)
        /// Deliveries a node attempts at once. Default 32.
        public var concurrency = 32
        /// How often a node looks for deliveries it was not told of (other nodes' events, retries due,
        /// leases of a node that died). Default 1 s.
        public var pollInterval: Duration = .seconds(1)
        /// How long after a message `unread.reminder` names the members who have not read it (when that type
        /// is sent). Default 10 minutes; a message found later than twice this (the server was down, or the
        /// type was just turned on) is not reminded.
        public var unreadReminderAfter: Duration = .seconds(600)
        /// Events kept in memory on their way to the outbox while the store cannot take them; past it an
        /// event is dropped and counted. Default 10 000.
        public var maxUnwritten = 10_000

        /// The defaults: no endpoint.
        public init() {}

        /// Whether a node sends events at all.
        public var isEnabled: Bool { !endpoints.isEmpty }

        /// Checks the endpoints and the secret.
        /// - Throws: ``ConfigurationError`` saying what to change.
        public func validate() throws {
            guard isEnabled else { return }
            for endpoint in endpoints {
                guard let scheme = endpoint.split(separator: ":", maxSplits: 1).first?.lowercased(), scheme == "http" || scheme == "https",
                    endpoint.lowercased().hasPrefix(scheme + "://"), endpoint.count > scheme.count + 3
                else { throw ConfigurationError.webhookURL(endpoint) }
            }
            guard let secret, secret.utf8.count >= 32 else { throw ConfigurationError.webhookNeedsSecret }
            guard concurrency > 0, maxUnwritten > 0, maxPending > 0, maxPendingBytes > 0 else { throw ConfigurationError.webhookLimits }
            guard unreadReminderAfter >= .seconds(1), unreadReminderAfter <= .seconds(7 * 86_400) else {
                throw ConfigurationError.webhookReminder
            }
        }
    }
}
