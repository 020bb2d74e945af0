import Foundation
import Logging
import NIOCore
import NIOPosix
import TypewireCore

/// The real-time heart of one node: connections, subscriptions, activity, presence and fan-out.
///
/// An actor that runs on one event loop of the server (``EventLoopActor``): every frame from every socket
/// passes through it in order, without a thread of Swift's global executor woken on the way. Each update of a conversation's
/// activity is encoded once and the same bytes go to every subscriber. The hub never writes to a socket
/// itself: it queues on each socket's outbox, so a slow reader cannot stall the hub.
///
/// Its work is split by concern: sockets (`Hub+Connections`), frames and subscriptions (`Hub+Frames`),
/// activity (`Hub+Activity`), messages and streamed replies (`Hub+Messages`), changes made through REST
/// (`Hub+Membership`), who may act where (`Hub+Admission`), fan-out (`Hub+FanOut`) and the other nodes of a
/// cluster (`Hub+Cluster`).
public actor Hub: EventLoopActor {
    /// One socket's state, the hub's alone. A class, so that looking a socket up in a fan-out takes one
    /// reference, not a copy of every field.
    final class Connection {
        let identity: Identity
        let outbox: any Outbox
        var subscriptions: Set<String> = []
        /// Lookups of conversations the user turned out not to be in.
        var unknownConversationLimiter: RateLimiter
        /// For a user who blocked someone: the activity each subscribed conversation last showed this
        /// socket, so that a change of a blocked user alone sends nothing (it would tell them it happened).
        var activityViews: [String: [ActivityEntry]] = [:]

        init(identity: Identity, outbox: any Outbox, unknownConversationLimiter: RateLimiter) {
            self.identity = identity
            self.outbox = outbox
            self.unknownConversationLimiter = unknownConversationLimiter
        }
    }

    /// The event loop the hub's code runs on: sockets of this loop are written to without a hop.
    public nonisolated let eventLoop: any EventLoop
    /// Runs the hub's jobs on ``eventLoop``.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }
    let store: any ChatStore
    /// The hub's counters.
    public nonisolated let metrics: HubMetrics
    let configuration: ServerConfiguration
    let now: @Sendable () -> Int64
    let logger: Logger
    var connections: [ConnectionID: Connection] = [:]
    var nextConnectionID: ConnectionID = 1
    var subscribers: [String: Set<ConnectionID>] = [:]
    /// Sockets whose subscription reads the store, and what was broadcast meanwhile.
    var joining = JoiningSubscribers()
    /// Sockets each user opened lately.
    nonisolated let handshakes: HandshakeBudgets
    var members = MembershipCache()
    var connectionsOfUser: [String: Set<ConnectionID>] = [:]
    /// Connected users who turned sharing their typing off (loaded on connect, dropped on the last close).
    var notSharing: Set<String> = []
    /// Whom each connected user has blocked (loaded on connect, dropped on the last close).
    var blocks: [String: Set<String>] = [:]
    var board: ActivityBoard
    /// Paces the activity updates of large groups.
    var pacer: ActivityPacer
    /// Counts membership changes, so that a participant list read from the store during a change is not cached.
    var membershipChanges = 0
    /// Replies being streamed.
    var streams = OpenReplies()
    /// Where events for the other nodes of a cluster go; nil on a single node.
    let cluster: ClusterOutbox?
    /// For each user online on other nodes of the cluster, those nodes.
    var remoteOnline: [String: Set<String>] = [:]
    /// The server is shutting down: no socket is taken any more.
    var shuttingDown = false
    /// The next expiry sweep (``runExpiry()``), a timer of ``eventLoop``.
    var expiryTimer: Scheduled<Void>?

    /// Creates a hub.
    /// - Parameters:
    ///   - store: Where conversations and messages live.
    ///   - configuration: Limits and intervals.
    ///   - metrics: Where the counters go.
    ///   - cluster: Where events for the other nodes go, when the node is part of a cluster.
    ///   - now: The server's clock in milliseconds since 1970; injected for tests.
    ///   - eventLoop: The loop the hub runs on; one of the server's own, so that its sockets there are written
    ///     to without a hop.
    public init(
        store: any ChatStore, configuration: ServerConfiguration, metrics: HubMetrics = HubMetrics(),
        logger: Logger = Logger(label: "typewire.hub"), cluster: ClusterOutbox? = nil,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) },
        eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    ) {
        self.eventLoop = eventLoop
        self.store = store
        self.metrics = metrics
        self.configuration = configuration
        self.logger = logger
        self.now = now
        self.handshakes = HandshakeBudgets(rate: configuration.handshakeRate, burst: configuration.handshakeBurst)
        self.board = ActivityBoard(ttl: configuration.activityTTL)
        self.pacer = ActivityPacer(
            interval: configuration.largeGroupInterval, groupSize: configuration.largeGroupSize,
            deliveriesPerSecond: configuration.largeGroupDeliveries
        )
        self.cluster = cluster
    }
}
