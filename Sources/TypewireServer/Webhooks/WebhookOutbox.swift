import TypewireCore

/// One delivery waiting in the outbox: an event for one endpoint, tried until the endpoint takes it or
/// the retry policy gives it up.
public struct WebhookDelivery: Sendable, Hashable {
    /// The outbox row.
    public var id: Int64
    /// The event's id (the same for every endpoint and attempt).
    public var eventID: String
    /// The event's type.
    public var type: WebhookEventType
    /// Where it goes.
    public var endpoint: String
    /// The JSON document sent.
    public var body: String
    /// When the event was made (milliseconds since 1970).
    public var createdAt: Int64
    /// The attempts that failed so far.
    public var attempts: Int

    /// Creates a delivery.
    public init(id: Int64, eventID: String, type: WebhookEventType, endpoint: String, body: String, createdAt: Int64, attempts: Int) {
        self.id = id
        self.eventID = eventID
        self.type = type
        self.endpoint = endpoint
        self.body = body
        self.createdAt = createdAt
        self.attempts = attempts
    }
}

/// Webhook events a store writes in the transaction that stores a new message: the event is durable
/// exactly when the message is (a crash after the commit loses neither, a rollback keeps neither).
public struct MessageWebhooks: Sendable {
    /// The endpoints each get one delivery.
    public var endpoints: [String]
    /// The event of a newly stored message.
    public var event: @Sendable (ChatMessage) -> WebhookEvent

    /// Creates the hook.
    public init(endpoints: [String], event: @escaping @Sendable (ChatMessage) -> WebhookEvent) {
        self.endpoints = endpoints
        self.event = event
    }
}

/// What the outbox holds: its deliveries and their bodies' bytes.
public struct WebhookBacklog: Sendable, Hashable {
    /// Deliveries waiting.
    public var rows: Int
    /// The UTF-8 bytes of their bodies.
    public var bytes: Int
    /// When the oldest event was made (milliseconds since 1970); nil when empty.
    public var oldest: Int64?

    /// Creates a figure.
    public init(rows: Int, bytes: Int, oldest: Int64?) {
        self.rows = rows
        self.bytes = bytes
        self.oldest = oldest
    }
}

/// Deliveries ``WebhookOutbox/trimWebhooks(endpoints:createdBefore:maxRows:maxBytes:)`` gave up, by reason.
public struct WebhookTrim: Sendable, Hashable {
    /// For an endpoint no longer configured.
    public var unconfigured = 0
    /// Made before the retry policy's limit: never to be tried again.
    public var expired = 0
    /// The oldest past the outbox's caps in rows or bytes.
    public var overCap = 0

    /// Nothing given up.
    public init() {}

    /// Creates a figure.
    public init(unconfigured: Int, expired: Int, overCap: Int) {
        self.unconfigured = unconfigured
        self.expired = expired
        self.overCap = overCap
    }

    /// Every delivery given up.
    public var total: Int { unconfigured + expired + overCap }
}

/// The durable outbox of webhook deliveries, in the node's store (SQLite, or the cluster's PostgreSQL).
///
/// Claiming is the lease: a claimed delivery's due time moves to the lease's end, so no other node (nor
/// this one) claims it again until then; a node that dies with deliveries claimed leaves them to be
/// claimed again when their leases end. Every node of a cluster claims from the same table, each row by
/// one node at a time (PostgreSQL: `FOR UPDATE SKIP LOCKED`).
///
/// An event with a ``WebhookEvent/coalescingKey`` (a message's edit) replaces the endpoint's delivery of
/// the same key that is still waiting: a message edited a hundred times while its receiver is down is one
/// row per endpoint, with the last text.
public protocol WebhookOutbox: Sendable {
    /// Stores one delivery of the event per endpoint, due at once, in place of any waiting delivery of the
    /// same ``WebhookEvent/coalescingKey`` to that endpoint.
    func enqueueWebhook(_ event: WebhookEvent, to endpoints: [String]) async throws
    /// Claims up to `limit` deliveries to these endpoints due at `now`, the longest due first, until
    /// `leaseUntil`.
    func claimWebhooks(dueAt now: Int64, limit: Int, leaseUntil: Int64, endpoints: [String]) async throws -> [WebhookDelivery]
    /// The endpoints took these deliveries: they leave the outbox, in one statement.
    func webhooksDelivered(_ ids: [Int64]) async throws
    /// The attempt failed: the delivery is due again at `retryAt` with `attempts` failures, or, with nil,
    /// given up (it leaves the outbox).
    func webhookFailed(_ id: Int64, attempts: Int, retryAt: Int64?) async throws
    /// The earliest due time of any delivery, claimed or not; nil when the outbox is empty.
    func nextWebhookDue() async throws -> Int64?
    /// How many deliveries the outbox holds, their bytes and the oldest's time.
    func webhookBacklog() async throws -> WebhookBacklog
    /// Gives up deliveries to endpoints not in `endpoints`, made before `createdBefore`, and then the
    /// oldest until at most `maxRows` deliveries of at most `maxBytes` bytes are left.
    func trimWebhooks(endpoints: [String], createdBefore: Int64, maxRows: Int, maxBytes: Int) async throws -> WebhookTrim

    /// Writes an `unread.reminder` event (``WebhookEventType/unreadReminder``, made at `now`) for each
    /// main-timeline message sent in (`sentAfter`, `sentBefore`] that no sweep took yet, naming the members,
    /// the sender and bots aside, whose own mark is before it (a private read counts); none for a message all
    /// of them read. At most `limit` messages a call, oldest first, in one transaction with the sweep's
    /// position, one node at a time in a cluster: each message is swept once. Returns the messages swept.
    func sweepUnreadReminders(sentAfter: Int64, sentBefore: Int64, limit: Int, endpoints: [String], at now: Int64) async throws -> Int
}
