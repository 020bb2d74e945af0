/// Everything `typewire serve` can be told, with the defaults a fresh machine needs.
public struct ServerConfiguration: Sendable {
    /// The address to listen on. Default `127.0.0.1`.
    public var host: String
    /// The port; 0 picks a free one. Default 8080.
    public var port: Int
    /// The SQLite file. Default `./typewire.sqlite`.
    public var sqlitePath: String
    /// The HS256 secret that signs and verifies tokens.
    public var jwtSecret: String
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
    /// Activity frames refused in a row after which the socket is closed with 1008. Default 500.
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
    /// sustained; past it they are dropped unanswered, and `abuseThreshold` dropped in a row close the
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
    /// Frames queued for one socket that it has not read yet; a socket whose queue fills up is closed with
    /// 1001 (it reconnects and resyncs), so a client that stops reading cannot make the server buffer
    /// without limit. Default 1 000.
    public var maxQueuedFrames: Int
    /// Conversations one socket may follow at once; a subscribe past it is refused with `forbidden`.
    /// Default 1 000.
    public var maxSubscriptionsPerSocket: Int
    /// Sockets one user may have open at once (devices and tabs); a hello past it is refused and the
    /// socket closed with 1008. Default 100.
    public var maxSocketsPerUser: Int
    /// Reply parts allowed at once per socket. Default 40.
    public var streamBurst: Double
    /// Browser origins allowed to open a socket (the `Origin` header, e.g. `https://chat.example`); empty
    /// allows every origin. Requests without a browser origin (apps and servers send none, or a ws:// one)
    /// are always allowed: the check protects users' tokens from foreign web pages.
    public var allowedOrigins: [String]
    /// The largest frame accepted, in bytes. Default 16 KiB.
    public var maxFrameSize: Int
    /// The longest message text, in characters. Default 10 000.
    public var maxMessageLength: Int
    /// How many recent messages `subscribed` carries. Default 50.
    public var recentMessages: Int
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
    /// Seed demo users and conversations and hand out demo tokens.
    public var demo: Bool

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, sqlitePath: String = "./typewire.sqlite", jwtSecret: String,
        activityTTL: Int64 = 4_800, refreshInterval: Int64 = 2_000, idleTimeout: Int64 = 3_000, helloTimeout: Int64 = 5_000, pingInterval: Int64 = 30_000,
        activityRate: Double = 10, activityBurst: Double = 20, abuseThreshold: Int = 500,
        messageRate: Double = 5, messageBurst: Double = 20, streamRate: Double = 20, streamBurst: Double = 40,
        subscribeRate: Double = 10, subscribeBurst: Double = 100, badFrameRate: Double = 10, badFrameBurst: Double = 100,
        largeGroupSize: Int = 100, largeGroupInterval: Int64 = 100, largeGroupDeliveries: Int = 10_000,
        maxActivityEntries: Int = 10, maxQueuedFrames: Int = 1_000, maxSubscriptionsPerSocket: Int = 1_000, maxSocketsPerUser: Int = 100, allowedOrigins: [String] = [],
        maxFrameSize: Int = 16_384, maxMessageLength: Int = 10_000, recentMessages: Int = 50,
        maxConversationMembers: Int = 1_000, maxTitleLength: Int = 200, maxActivityDetailLength: Int = 64, publicDirectory: String = "Public",
        demo: Bool = false
    ) {
        self.host = host
        self.port = port
        self.sqlitePath = sqlitePath
        self.jwtSecret = jwtSecret
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
        self.maxQueuedFrames = maxQueuedFrames
        self.maxSubscriptionsPerSocket = maxSubscriptionsPerSocket
        self.maxSocketsPerUser = maxSocketsPerUser
        self.allowedOrigins = allowedOrigins
        self.maxFrameSize = maxFrameSize
        self.maxMessageLength = maxMessageLength
        self.recentMessages = recentMessages
        self.maxConversationMembers = maxConversationMembers
        self.maxTitleLength = maxTitleLength
        self.maxActivityDetailLength = maxActivityDetailLength
        self.publicDirectory = publicDirectory
        self.demo = demo
    }
}
