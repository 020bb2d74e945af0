import NIOCore

/// What a NATS server sends a client (the core protocol: docs.nats.io, "Client Protocol").
public enum NATSServerMessage: Equatable, Sendable {
    /// The server's description of itself, first on every connection and again when the cluster changes.
    case info(NATSServerInfo)
    /// A message published to a subject one of the client's subscriptions matches.
    case message(NATSMessage)
    /// A keep-alive the client must answer with `PONG`.
    case ping
    /// The answer to the client's `PING`.
    case pong
    /// The acknowledgement of a command in verbose mode (the client does not ask for it).
    case ok
    /// A protocol error; the server closes the connection after most of them.
    case error(String)
}

/// A message delivered on a subscription.
public struct NATSMessage: Equatable, Sendable {
    /// The subject it was published to.
    public var subject: String
    /// The subscription it was delivered on.
    public var subscription: Int
    /// The subject to answer to, if the publisher asked for an answer.
    public var replyTo: String?
    /// The payload, any bytes (it may hold CRLF: its length comes before it).
    public var payload: ByteBuffer

    /// Creates a message.
    public init(subject: String, subscription: Int, replyTo: String? = nil, payload: ByteBuffer) {
        self.subject = subject
        self.subscription = subscription
        self.replyTo = replyTo
        self.payload = payload
    }
}

/// The fields of a server's `INFO` the client uses; the others are ignored.
public struct NATSServerInfo: Decodable, Equatable, Sendable {
    /// The server's id.
    public var serverID: String
    /// The largest payload the server accepts, in bytes.
    public var maxPayload: Int
    /// Whether the server wants credentials in `CONNECT`.
    public var authRequired: Bool
    /// Whether the server only takes TLS connections.
    public var tlsRequired: Bool
    /// Whether the server takes TLS connections when a client asks (`allow_non_tls`).
    public var tlsAvailable: Bool
    /// Other servers of its cluster that clients may connect to (`host:port`).
    public var connectURLs: [String]
    /// Whether the server is shutting down gracefully and clients should move to another (lame duck mode).
    public var lameDuckMode: Bool

    enum CodingKeys: String, CodingKey {
        case serverID = "server_id"
        case maxPayload = "max_payload"
        case authRequired = "auth_required"
        case tlsRequired = "tls_required"
        case tlsAvailable = "tls_available"
        case connectURLs = "connect_urls"
        case lameDuckMode = "ldm"
    }

    /// Creates a description (tests; the client decodes it from `INFO`).
    public init(
        serverID: String = "", maxPayload: Int = 1_048_576, authRequired: Bool = false, tlsRequired: Bool = false,
        tlsAvailable: Bool = false, connectURLs: [String] = [], lameDuckMode: Bool = false
    ) {
        self.tlsAvailable = tlsAvailable
        self.serverID = serverID
        self.maxPayload = maxPayload
        self.authRequired = authRequired
        self.tlsRequired = tlsRequired
        self.connectURLs = connectURLs
        self.lameDuckMode = lameDuckMode
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        serverID = try container.decodeIfPresent(String.self, forKey: .serverID) ?? ""
        maxPayload = try container.decodeIfPresent(Int.self, forKey: .maxPayload) ?? 1_048_576
        authRequired = try container.decodeIfPresent(Bool.self, forKey: .authRequired) ?? false
        tlsRequired = try container.decodeIfPresent(Bool.self, forKey: .tlsRequired) ?? false
        tlsAvailable = try container.decodeIfPresent(Bool.self, forKey: .tlsAvailable) ?? false
        connectURLs = try container.decodeIfPresent([String].self, forKey: .connectURLs) ?? []
        lameDuckMode = try container.decodeIfPresent(Bool.self, forKey: .lameDuckMode) ?? false
    }
}
