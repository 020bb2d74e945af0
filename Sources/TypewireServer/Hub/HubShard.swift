import Foundation
import Logging
import NIOCore
import TypewireCore

/// One shard of a node's ``Hub``: the conversations that hash to it (their subscribers, activity, pacing,
/// membership cache and fan-out), and a copy of what every shard needs to know of the node's users (their
/// sockets, blocks, sharing and presence elsewhere in the cluster).
///
/// An actor confined to one event loop of the server (``EventLoopActor``): its code runs on that loop's
/// thread, no other shard or lock sees its frames, and its sockets on that loop are written to without a
/// hop. Each update of a conversation's activity is encoded once and the same bytes go to every subscriber.
/// A shard never writes to a socket itself: it queues on each socket's sink, so a slow reader cannot
/// stall it.
///
/// Its work is split by concern: sockets (`HubShard+Connections`), frames and subscriptions
/// (`HubShard+Frames`), activity (`HubShard+MemberActivity`), messages and streamed replies (`HubShard+Messages`),
/// typing-only mode's refusals (`HubShard+TypingOnly`), changes made through REST (`HubShard+Membership`),
/// who may act where (`HubShard+Access`), fan-out (`HubShard+FanOut`), the server API's questions
/// (`HubShard+ServerAPI`) and the other nodes of a cluster (`HubShard+Cluster`). Who follows what is
/// ``Subscriptions``; who is online and what they share, ``UserDirectory``.
actor HubShard: EventLoopActor {
    /// One socket as this shard knows it. A class, so that looking a socket up in a fan-out takes one
    /// reference, not a copy of every field.
    final class Connection {
        let identity: Identity
        let sink: any FrameSink
        /// What the socket may spend, shared by every shard (``SocketBudget``).
        let budget: SocketBudget
        /// For a user who sees nothing of someone (a block, either way): the activity each subscribed
        /// conversation last showed this socket, so that a change of a hidden user alone sends nothing (it
        /// would tell them it happened).
        var activityViews: [String: [ActivityEntry]] = [:]
        /// The conversations whose read state the socket follows (`subscribe`'s `readState`).
        var readState: Set<String> = []

        init(identity: Identity, sink: any FrameSink, budget: SocketBudget) {
            self.identity = identity
            self.sink = sink
            self.budget = budget
        }
    }

    /// The event loop the shard's code runs on.
    nonisolated let eventLoop: any EventLoop
    /// Runs the shard's jobs on ``eventLoop``.
    nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }
    /// ``eventLoop`` as the preferred executor of the shard's tasks.
    nonisolated let taskExecutor: EventLoopTaskExecutor
    let store: any ChatStore
    let metrics: HubMetrics
    let configuration: ServerConfiguration
    let now: @Sendable () -> Int64
    let logger: Logger
    /// The server's handshakes at once, a `subscribe`'s reads among them (shared by the shards).
    let handshakeGate: HandshakeGate
    var connections: [ConnectionID: Connection] = [:]
    /// Which sockets follow which conversations.
    var subscriptions = Subscriptions<Connection>()
    /// Sockets whose subscription reads the store, and what was broadcast meanwhile.
    var joining = JoiningSubscribers()
    var members: MembershipCache
    /// The recent messages of the conversations followed here; kept on a single node only (``cluster`` nil).
    var history: RecentHistoryCache
    /// Who is online, here or elsewhere in the cluster, and what they share with whom.
    var users = UserDirectory()
    var board: ActivityBoard
    /// Paces the activity updates of large groups.
    var pacer: ActivityPacer
    /// The conversations' receipts waiting for their fan-out.
    var receipts = ReceiptBatcher(interval: 1_000)
    /// Membership changes, so that a participant list read from the store during a change is not cached.
    var membershipChanges = ChangeCount()
    /// Replies being streamed, the node's (a bot's cap counts its replies in every shard).
    let streams: SharedOpenReplies
    /// Replies bots stream on other nodes, in this shard's conversations, as the bus relays their parts.
    var remoteReplies = RemoteReplies()
    /// Where events for the other nodes of a cluster go; nil on a single node.
    let cluster: ClusterPublisher?
    /// Where events for the app's backend go; nil without webhooks.
    let webhooks: WebhookEvents?
    /// The next expiry sweep (``runExpiry()``), a timer of ``eventLoop``.
    var expiryTimer: Scheduled<Void>?

    init(
        store: any ChatStore, configuration: ServerConfiguration, metrics: HubMetrics, logger: Logger,
        cluster: ClusterPublisher?, webhooks: WebhookEvents? = nil, streams: SharedOpenReplies, handshakeGate: HandshakeGate,
        now: @escaping @Sendable () -> Int64, eventLoop: any EventLoop
    ) {
        self.eventLoop = eventLoop
        self.taskExecutor = EventLoopTaskExecutor(eventLoop)
        self.handshakeGate = handshakeGate
        self.store = store
        self.metrics = metrics
        self.configuration = configuration
        self.logger = logger
        self.now = now
        self.board = ActivityBoard(ttl: configuration.typing.activityTTL.wholeMilliseconds)
        self.pacer = ActivityPacer(
            interval: configuration.typing.largeGroupInterval.wholeMilliseconds, groupSize: configuration.typing.largeGroupSize,
            deliveriesPerSecond: configuration.typing.largeGroupDeliveries
        )
        self.cluster = cluster
        // Another node's messages and names may not reach this one: a cluster node keeps neither.
        self.members = MembershipCache(keepsNames: cluster == nil)
        self.history = RecentHistoryCache(byteBudget: cluster == nil ? RecentHistoryCache.defaultByteBudget : 0)
        self.webhooks = webhooks
        self.streams = streams
    }
}
