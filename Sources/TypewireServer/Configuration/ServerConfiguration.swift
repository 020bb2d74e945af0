/// Everything `typewire serve` can be told, with the defaults a fresh machine needs.
public struct ServerConfiguration: Sendable {
    /// The address to listen on. Default `127.0.0.1`.
    public var host: String
    /// The port; 0 picks a free one. Default 8080.
    public var port: Int
    /// Event-loop threads: the sockets and the hub's shards (one per loop) run on them. Default nil: NIO's
    /// shared group, one loop per core.
    public var threads: Int?
    /// The SQLite file. Default `./typewire.sqlite`.
    public var sqlitePath: String
    /// The HS256 secret that signs and verifies tokens, if such tokens are accepted. A server needs it, a
    /// ``keySet``, or both.
    public var jwtSecret: String?
    /// The identity provider's JSON Web Key Set that RS256 and ES256 tokens are verified with, if any.
    public var keySet: KeySetSource?
    /// How long a key id that a token named and the key set did not have is not looked for again, in
    /// milliseconds (any two reads for unknown keys are at least 5 s apart, ``KeySet``). Default 60 000.
    public var keySetRefreshInterval: Int64
    /// What every token must say (issuer, audience) and where its name and bot flag are.
    public var tokenRules: TokenRules
    /// The secret the nodes of a cluster sign their bus events with; default ``jwtSecret``. A cluster of
    /// nodes that verify tokens with a key set alone needs it.
    public var clusterSecret: String?
    /// How long an activity lives after its last frame, in milliseconds. Default 4 800 (docs/FIDELITY.md).
    public var activityTTL: Int64
    /// The sender's refresh interval told to clients, in milliseconds. Default 2 000.
    public var refreshInterval: Int64
    /// The sender's idle timeout told to clients, in milliseconds. Default 3 000.
    public var idleTimeout: Int64
    /// How long a socket may take to send a valid `hello`, in milliseconds. Default 5 000.
    public var helloTimeout: Int64
    /// How often the server pings each socket; a peer that does not answer before the next ping is
    /// closed as dead. In milliseconds. Default 30 000.
    public var pingInterval: Int64
    /// Activity frames allowed per second and socket, sustained; the excess is dropped. Default 10.
    public var activityRate: Double
    /// Activity frames allowed at once per socket. Default 20.
    public var activityBurst: Double
    /// Frames dropped by one of a socket's budgets (activity, frames in all, bad frames) within a second
    /// after which the socket is closed with 1008: a flood, not a client a little over a budget. Default 500.
    public var abuseThreshold: Int
    /// Messages (`send`, `edit`, the final part of a `stream`) allowed per second and socket, sustained;
    /// the excess is refused with `rate_limited` (the client retries). Default 5.
    public var messageRate: Double
    /// Messages allowed at once per socket. Default 20.
    public var messageBurst: Double
    /// Parts of bots' streamed replies (`stream` frames before the final one) allowed per second and
    /// socket, sustained: a reply streams faster than people write messages. The excess is refused with
    /// `rate_limited` and not fanned out; the reply is still stored whole at its end. Default 20.
    public var streamRate: Double
    /// `subscribe` frames allowed per second and socket, sustained; the excess is refused with
    /// `rate_limited` (the client subscribes again shortly). Default 10.
    public var subscribeRate: Double
    /// `subscribe` frames allowed at once per socket: an app opening its conversations at launch. Default 100.
    public var subscribeBurst: Double
    /// Frames that cannot be read (not JSON, unknown type, bad fields) answered per second and socket,
    /// sustained; past it they are dropped unanswered, and `abuseThreshold` dropped within a second close the
    /// socket with 1008. Default 10.
    public var badFrameRate: Double
    /// Bad frames answered at once per socket. Default 100.
    public var badFrameBurst: Double
    /// Subscribers from which a conversation is a large group: its `activity` updates are paced to one per
    /// ``largeGroupInterval``, changes in between coalesced into the next one. Default 100.
    public var largeGroupSize: Int
    /// The shortest time between two `activity` updates of a large group, in milliseconds. Default 100.
    public var largeGroupInterval: Int64
    /// The most `activity` frames one large group's updates may take a second, over all its subscribers:
    /// a larger group gets its updates further apart (5 000 subscribers: one per 500 ms). Default 10 000.
    public var largeGroupDeliveries: Int
    /// The most entries one `activity` update lists (the first to start); its `total` counts them all.
    /// Default 10.
    public var maxActivityEntries: Int
    /// Bytes of frames queued for one socket that it has not read yet; a socket whose queue would grow past
    /// it is closed with 1001 (it reconnects and resyncs), so a client that stops reading cannot make the
    /// server buffer without limit. Default 4 MiB.
    public var maxQueuedBytes: Int
    /// Frames of any kind allowed per second and socket, sustained, after each kind's own budget; the
    /// only budget of stops, `unsubscribe` and a second `hello`. The excess is dropped (the client is told
    /// once a second) and `abuseThreshold` dropped within a second close the socket with 1008. Default 100.
    public var frameRate: Double
    /// Frames of any kind allowed at once per socket. Default 400.
    public var frameBurst: Double
    /// Lookups of conversations that do not exist (or that the user is not in) allowed per second and
    /// socket, sustained; past it such a frame is refused with `rate_limited` without asking the store.
    /// Default 1.
    public var unknownConversationRate: Double
    /// Lookups of conversations that do not exist allowed at once per socket. Default 20.
    public var unknownConversationBurst: Double
    /// Conversations one socket may follow at once; a subscribe past it is refused with `forbidden`.
    /// Default 1 000.
    public var maxSubscriptionsPerSocket: Int
    /// Sockets one user may have open at once (devices and tabs); a hello past it is refused and the
    /// socket closed with 1008. Default 100.
    public var maxSocketsPerUser: Int
    /// Sockets one user may open per second, sustained (handshakes past `hello`'s token check); past it a
    /// `hello` is refused with `rate_limited` before its token is verified or the store read, and the socket
    /// closed with 1013 (the client connects again with its backoff). Default 5.
    public var handshakeRate: Double
    /// Sockets one user may open at once (all of a user's devices and tabs reconnecting after a restart).
    /// Default 50.
    public var handshakeBurst: Double
    /// Refused sockets one client address may cause (sockets closed before `welcome`, or for flooding) before
    /// its connections are closed as soon as accepted; it regains one a second. 0 counts none. Default 20
    /// (``AddressRefusals``).
    public var refusalsPerAddress: Double
    /// Connections one client address may have open that have not yet sent a whole first request head; past
    /// it the address's new connections are closed as soon as accepted (``PendingHeads``). 0 counts none.
    /// Loopback and private addresses are counted only with ``countsLocalAddresses``. Default 64.
    public var pendingConnectionsPerAddress = 64
    /// Whether loopback and private addresses count refusals too. Default false: a proxy or load balancer in
    /// front of the server connects from one, for all its clients.
    public var countsLocalAddresses: Bool
    /// Reply parts allowed at once per socket. Default 40.
    public var streamBurst: Double
    /// Browser origins allowed to open a socket (the `Origin` header, e.g. `https://chat.example`); empty
    /// allows every origin. Requests without a browser origin (apps and servers send none, or a ws:// one)
    /// are always allowed: the check protects users' tokens from foreign web pages.
    public var allowedOrigins: [String]
    /// The largest frame accepted, in bytes. Default 16 KiB.
    public var maxFrameSize: Int
    /// The largest frame the WebSocket layer reads once a socket has said hello: four times
    /// ``maxFrameSize``, at least 64 KiB. A frame between the two is answered with `too_large` and the
    /// socket kept; past it the socket is closed (1009).
    public var socketFrameLimit: Int { max(4 * maxFrameSize, 64 * 1_024) }
    /// The longest message text, in characters. Default 10 000.
    public var maxMessageLength: Int
    /// How many recent messages `subscribed` carries. Default 50.
    public var recentMessages: Int
    /// The most bytes of text the recent messages of one `subscribed` carry, newest first (at least the
    /// newest message); older ones are read with `GET /v1/conversations/:id/messages`. Default 64 KiB.
    public var maxRecentBytes: Int
    /// Replies one bot may stream at once (each up to ``maxMessageLength``); a part that would start one
    /// more is refused with `rate_limited`. Default 10.
    public var maxOpenReplies: Int
    /// How long a streamed reply may stay silent, in milliseconds; past it the server forgets its text
    /// (clients stop showing it after the same time, `BotActivity`'s chunk timeout). Default 10 000.
    public var replyTimeout: Int64
    /// REST requests allowed per second and user, sustained; past it they are answered 429. Default 10.
    public var requestRate: Double
    /// REST requests allowed at once per user. Default 50.
    public var requestBurst: Double
    /// Conversations one user may create per minute; past it `POST /v1/conversations` answers 429.
    /// Default 30.
    public var conversationsPerMinute: Int
    /// The most participants a conversation may have (its creator included). Default 1 000.
    public var maxConversationMembers: Int
    /// The longest conversation title, in characters. Default 200.
    public var maxTitleLength: Int
    /// The longest `detail` of an activity (a tool's name), in characters; every subscriber gets it on
    /// every refresh. Default 64.
    public var maxActivityDetailLength: Int
    /// The folder of the web demo's static files (HTML, CSS, JavaScript), served at `/`; a relative path
    /// is resolved against the current directory. Default `Public`. With ``demo`` the folder must exist
    /// (the server refuses to start otherwise); without it, a missing folder just serves no files.
    public var publicDirectory: String
    /// The most bytes of a request's head (request line and headers); a larger one is answered 431 and
    /// the connection closed. Default 32 KiB.
    public var maxHeaderBytes: Int
    /// How long a new connection may take to send its first request head, in milliseconds; past it the
    /// connection is closed. Default 10 000.
    public var headerTimeout: Int64
    /// How long an HTTP connection may stay idle between requests, in milliseconds. Default 60 000.
    public var httpIdleTimeout: Int64
    /// How long a socket the server closes waits for the peer's close frame, in milliseconds; then the
    /// connection is dropped. It bounds how long a peer that never answers holds a shutdown. Default 3 000.
    public var closeTimeout: Int64
    /// The key of the server API (`/v1/server/`, for the app's backend), at least 32 bytes; without one
    /// the API's routes do not exist.
    public var apiKey: String?
    /// Server API requests allowed per second, sustained (all callers share the key). Default 100.
    public var serverAPIRate: Double
    /// Server API requests allowed at once. Default 500.
    public var serverAPIBurst: Double
    /// The most bytes of a user or conversation id the server API takes. Default 256.
    public var maxIDLength: Int
    /// Whether the server keeps messages. False is typing-only mode (`--no-messages`), for apps that keep
    /// their messages elsewhere: `send`, `edit` and `stream` are refused with `messages_disabled`, and
    /// nothing is stored but users, conversations, participants, settings and blocks. Default true.
    public var storesMessages: Bool
    /// Seed demo users and conversations and hand out demo tokens.
    public var demo: Bool

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, sqlitePath: String = "./typewire.sqlite", jwtSecret: String?,
        keySet: KeySetSource? = nil, keySetRefreshInterval: Int64 = 60_000, tokenRules: TokenRules = TokenRules(), clusterSecret: String? = nil,
        activityTTL: Int64 = 4_800, refreshInterval: Int64 = 2_000, idleTimeout: Int64 = 3_000, helloTimeout: Int64 = 5_000, pingInterval: Int64 = 30_000,
        activityRate: Double = 10, activityBurst: Double = 20, abuseThreshold: Int = 500,
        messageRate: Double = 5, messageBurst: Double = 20, streamRate: Double = 20, streamBurst: Double = 40,
        subscribeRate: Double = 10, subscribeBurst: Double = 100, badFrameRate: Double = 10, badFrameBurst: Double = 100,
        largeGroupSize: Int = 100, largeGroupInterval: Int64 = 100, largeGroupDeliveries: Int = 10_000,
        maxActivityEntries: Int = 10, maxQueuedBytes: Int = 4 << 20, frameRate: Double = 100, frameBurst: Double = 400,
        unknownConversationRate: Double = 1, unknownConversationBurst: Double = 20, maxSubscriptionsPerSocket: Int = 1_000, maxSocketsPerUser: Int = 100,
        handshakeRate: Double = 5, handshakeBurst: Double = 50,
        refusalsPerAddress: Double = 20, countsLocalAddresses: Bool = false, allowedOrigins: [String] = [],
        maxFrameSize: Int = 16_384, maxMessageLength: Int = 10_000, recentMessages: Int = 50, maxRecentBytes: Int = 64 * 1_024,
        maxOpenReplies: Int = 10, replyTimeout: Int64 = 10_000, requestRate: Double = 10, requestBurst: Double = 50, conversationsPerMinute: Int = 30,
        maxConversationMembers: Int = 1_000, maxTitleLength: Int = 200, maxActivityDetailLength: Int = 64, publicDirectory: String = "Public",
        maxHeaderBytes: Int = 32 * 1_024, headerTimeout: Int64 = 10_000, httpIdleTimeout: Int64 = 60_000, closeTimeout: Int64 = 3_000,
        apiKey: String? = nil, serverAPIRate: Double = 100, serverAPIBurst: Double = 500, maxIDLength: Int = 256,
        storesMessages: Bool = true, demo: Bool = false
    ) {
        self.host = host
        self.port = port
        self.sqlitePath = sqlitePath
        self.jwtSecret = jwtSecret
        self.keySet = keySet
        self.keySetRefreshInterval = keySetRefreshInterval
        self.tokenRules = tokenRules
        self.clusterSecret = clusterSecret
        self.activityTTL = activityTTL
        self.refreshInterval = refreshInterval
        self.idleTimeout = idleTimeout
        self.helloTimeout = helloTimeout
        self.pingInterval = pingInterval
        self.activityRate = activityRate
        self.activityBurst = activityBurst
        self.abuseThreshold = abuseThreshold
        self.messageRate = messageRate
        self.messageBurst = messageBurst
        self.streamRate = streamRate
        self.streamBurst = streamBurst
        self.subscribeRate = subscribeRate
        self.subscribeBurst = subscribeBurst
        self.badFrameRate = badFrameRate
        self.badFrameBurst = badFrameBurst
        self.largeGroupSize = largeGroupSize
        self.largeGroupInterval = largeGroupInterval
        self.largeGroupDeliveries = largeGroupDeliveries
        self.maxActivityEntries = maxActivityEntries
        self.maxQueuedBytes = maxQueuedBytes
        self.frameRate = frameRate
        self.frameBurst = frameBurst
        self.unknownConversationRate = unknownConversationRate
        self.unknownConversationBurst = unknownConversationBurst
        self.maxSubscriptionsPerSocket = maxSubscriptionsPerSocket
        self.maxSocketsPerUser = maxSocketsPerUser
        self.handshakeRate = handshakeRate
        self.handshakeBurst = handshakeBurst
        self.refusalsPerAddress = refusalsPerAddress
        self.countsLocalAddresses = countsLocalAddresses
        self.allowedOrigins = allowedOrigins
        self.maxFrameSize = maxFrameSize
        self.maxMessageLength = maxMessageLength
        self.recentMessages = recentMessages
        self.maxRecentBytes = maxRecentBytes
        self.maxOpenReplies = maxOpenReplies
        self.replyTimeout = replyTimeout
        self.requestRate = requestRate
        self.requestBurst = requestBurst
        self.conversationsPerMinute = conversationsPerMinute
        self.maxConversationMembers = maxConversationMembers
        self.maxTitleLength = maxTitleLength
        self.maxActivityDetailLength = maxActivityDetailLength
        self.publicDirectory = publicDirectory
        self.maxHeaderBytes = maxHeaderBytes
        self.headerTimeout = headerTimeout
        self.httpIdleTimeout = httpIdleTimeout
        self.closeTimeout = closeTimeout
        self.apiKey = apiKey
        self.serverAPIRate = serverAPIRate
        self.serverAPIBurst = serverAPIBurst
        self.maxIDLength = maxIDLength
        self.storesMessages = storesMessages
        self.demo = demo
    }
}
