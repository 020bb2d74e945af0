/// Everything `typewire serve` can be told, with the defaults a fresh machine needs, in groups by concern:
///
/// ```swift
/// var configuration = ServerConfiguration(jwtSecret: secret)
/// configuration.http.port = 0
/// configuration.typing.activityTTL = .seconds(60)
/// configuration.budgets.messages = RateBudget(rate: 1, burst: 5)
/// ```
public struct ServerConfiguration: Sendable {
    /// Where the server listens and what its HTTP connections may send.
    public var http: HTTP
    /// How tokens are verified, and the secret of a cluster's bus.
    public var auth: Auth
    /// Where the store lives and what it keeps.
    public var storage: Storage
    /// The life of a socket: its timeouts and what it may hold.
    public var sockets: Sockets
    /// Each socket's budgets, and the user's handshakes.
    public var budgets: Budgets
    /// How activity lives and is fanned out.
    public var typing: Typing
    /// Messages' sizes, history and streamed replies.
    public var messages: Messages
    /// Conversations' sizes and how fast users create them.
    public var conversations: Conversations
    /// What one client address may cost before its connections are closed as soon as accepted.
    public var addresses: Addresses
    /// The server API for the app's backend.
    public var serverAPI: ServerAPI
    /// Events sent to the app's backend.
    public var webhooks: Webhooks
    /// Event-loop threads: the sockets and the hub's shards (one per loop) run on them. Default nil: NIO's
    /// shared group, one loop per core.
    public var threads: Int?
    /// Seed demo users and conversations and hand out demo tokens.
    public var demo: Bool
    /// Keep the time frames spend in each stage of the server in `/metrics` (``StageTimings``). Default off.
    public var stageMetrics: Bool

    /// Creates a configuration with every default but the token secret.
    /// - Parameter jwtSecret: The HS256 secret tokens are verified with; nil if only a key set is (``Auth/keySet``).
    public init(jwtSecret: String?) {
        http = HTTP()
        auth = Auth(jwtSecret: jwtSecret)
        storage = Storage()
        sockets = Sockets()
        budgets = Budgets()
        typing = Typing()
        messages = Messages()
        conversations = Conversations()
        addresses = Addresses()
        serverAPI = ServerAPI()
        webhooks = Webhooks()
        threads = nil
        demo = false
        stageMetrics = false
    }
}
