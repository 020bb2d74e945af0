import Atomics
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TypewireCore

/// The real-time heart of one node: connections, subscriptions, activity, presence and fan-out, sharded
/// over the server's event loops.
///
/// Each conversation belongs to one ``HubShard``, chosen by a hash of its id, and each shard is an actor
/// confined to one event loop: every frame for a conversation goes to its shard alone, so no single actor
/// or lock sees every frame of the node, and hub work runs on every loop. What every shard must know of the
/// node's users (their sockets, blocks, sharing, presence on other nodes) is registered in each shard when
/// it changes, which is rare next to frames: a socket's `hello` and close, a block, a setting, a node's
/// presence event. What a socket or a bot may spend is kept once, whichever shards spend it
/// (``SocketBudget``, ``SharedOpenReplies``).
///
/// The hub itself holds no conversation state: it admits sockets (the per-user budgets, the store's reads
/// of the user), hands each call to the shard or shards it concerns, and speaks to the other nodes of a
/// cluster once for the node.
public final class Hub: Sendable {
    /// The hub's counters.
    public let metrics: HubMetrics
    /// Sockets each user opened lately.
    let handshakes: HandshakeBudgets
    /// The handshakes worked on at once (``handshakesAtOnce``); sockets' `hello`s and `subscribe`s take turns.
    let handshakeGate: HandshakeGate
    /// How many handshakes the server works on at once: enough to keep the store and the loops busy
    /// (about 1 ms each when the server is idle), few enough that what sockets already open send never
    /// waits behind a storm of them.
    static let handshakesAtOnce = 64
    let now: @Sendable () -> Int64
    let shards: [HubShard]
    private let store: any ChatStore
    private let configuration: ServerConfiguration
    private let logger: Logger
    /// Where events for the other nodes of a cluster go; nil on a single node.
    private let cluster: ClusterPublisher?
    /// Where events for the app's backend go; nil without webhooks.
    let webhooks: WebhookEvents?
    private let streams = SharedOpenReplies()
    private let nextConnectionID = ManagedAtomic<ConnectionID>(1)
    /// The sockets each user has on this node: served (the user's presence for the other nodes) and holding
    /// a place (``ServerConfiguration/Sockets/maxPerUser``).
    private let userSockets = NIOLockedValueBox(UserSockets())
    /// The server is shutting down: no socket is taken any more.
    private let shuttingDown = ManagedAtomic<Bool>(false)

    /// Creates a hub.
    /// - Parameters:
    ///   - store: Where conversations and messages live.
    ///   - configuration: Limits and intervals.
    ///   - metrics: Where the counters go.
    ///   - cluster: Where events for the other nodes go, when the node is part of a cluster.
    ///   - webhooks: Where events for the app's backend go, when it has webhook endpoints.
    ///   - now: The server's clock in milliseconds since 1970; injected for tests.
    ///   - eventLoops: The loops the shards run on, one shard each; the server's own, so that sockets are
    ///     written to from their own loop's shard without a hop. By default every loop of NIO's shared group,
    ///     which the server runs on.
    public init(
        store: any ChatStore, configuration: ServerConfiguration, metrics: HubMetrics = HubMetrics(),
        logger: Logger = Logger(label: "typewire.hub"), cluster: ClusterPublisher? = nil, webhooks: WebhookEvents? = nil,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) },
        eventLoops: [any EventLoop] = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
    ) {
        precondition(!eventLoops.isEmpty, "a hub needs at least one event loop")
        self.store = store
        self.metrics = metrics
        self.configuration = configuration
        self.logger = logger
        self.now = now
        self.cluster = cluster
        self.webhooks = webhooks
        self.handshakes = HandshakeBudgets(configuration.budgets.handshakes)
        let streams = streams
        let gate = HandshakeGate(limit: Self.handshakesAtOnce)
        self.handshakeGate = gate
        self.shards = eventLoops.map { loop in
            HubShard(
                store: store, configuration: configuration, metrics: metrics, logger: logger, cluster: cluster, webhooks: webhooks,
                streams: streams, handshakeGate: gate, now: now, eventLoop: loop
            )
        }
    }

    // MARK: Shards

    /// The event loops the shards run on.
    var eventLoops: [any EventLoop] { shards.map(\.eventLoop) }

    /// The shard that owns a conversation.
    func shard(for conversation: String) -> HubShard {
        shards.count == 1 ? shards[0] : shards[Int(Self.stableHash(conversation) % UInt64(shards.count))]
    }

    /// The shard on a socket's event loop (its work starts there), or the first one for a loop without a shard.
    func shard(on eventLoop: any EventLoop) -> HubShard {
        shards.first { $0.eventLoop === eventLoop } ?? shards[0]
    }

    /// The shard a frame concerns: its conversation's (a second `hello`, which only gets an error, goes to the first).
    private func shard(of frame: ClientFrame) -> HubShard {
        frame.conversation.map(shard(for:)) ?? shards[0]
    }

    /// FNV-1a over the id's UTF-8: the same shard for a conversation in every run (Swift's `Hasher` is seeded
    /// per process). A few lines; no package this project uses offers it.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    // MARK: Sockets

    /// Registers an authenticated socket in every shard and answers with `welcome`.
    ///
    /// The handshake reads what the store knows of the user (settings and blocks, on SQLite's reader
    /// connections, beside any writes) and writes the user only when the token's name or role changed:
    /// a reconnecting user costs no disk write.
    /// - Parameters:
    ///   - identity: Who the socket's token named.
    ///   - sink: Where the hub queues the socket's frames, and closes it with the going-away code (1001) for
    ///     a shutdown or when it reads too slowly to follow (the sink overflowed).
    /// - Returns: The connection's id, for every later call.
    /// - Throws: ``ConnectRefusal``: the user opened sockets faster than ``ServerConfiguration/Budgets/handshakes``
    ///   (checked first, so a user reconnecting in a loop costs no store read), already has
    ///   ``ServerConfiguration/Sockets/maxPerUser`` sockets, or the store cannot be read now (the client retries later).
    /// - Parameter isolation: Where the caller runs (a socket's work runs on the shard of its loop): the
    ///   shard the call runs on registers the socket without a hop.
    public func connect(
        _ identity: Identity, sink: any FrameSink, isolation: isolated (any Actor)? = #isolation
    ) async throws(ConnectRefusal) -> ConnectionID {
        guard !shuttingDown.load(ordering: .relaxed) else { throw .shuttingDown }
        guard handshakes.allow(identity.userID, now: now()) else { throw .tooManyHandshakes(rate: configuration.budgets.handshakes.rate) }
        let limit = configuration.sockets.maxPerUser
        guard userSockets.withLockedValue({ $0.places(of: identity.userID) }) < limit else { throw .tooManySockets(limit: limit) }
        let record: UserRecord
        do {
            record = try await store.handshakeRecord(of: identity)
        } catch {
            logger.storeFailed("the store could not be read for a handshake", error: error)
            throw .storeUnavailable
        }
        // The bot flag the server API set holds whatever the token says; a token without a name keeps the stored one.
        let stored = record.stored
        let renamed = stored?.matches(identity) != true  // the store wrote the user
        let identity = stored?.applied(to: identity) ?? identity
        // Checked again after the waits: the server may be shutting down, and other sockets of the user may
        // have connected meanwhile. The socket's place is taken here, before the shards hear of it.
        guard !shuttingDown.load(ordering: .relaxed) else { throw .shuttingDown }
        let id = nextConnectionID.loadThenWrappingIncrement(ordering: .relaxed)
        guard let firstDevice = userSockets.withLockedValue({ $0.take(id, of: identity.userID, limit: limit) }) else {
            throw .tooManySockets(limit: limit)
        }
        let budget = SocketBudget(unknownConversations: configuration.budgets.unknownConversations)
        let settings = UserSettings(
            blocked: record.blocked, blockers: record.blockers, sharesTyping: stored?.sharesTyping ?? true,
            sharesPresence: stored?.sharesPresence ?? true, readReceipts: stored?.readReceipts ?? .share
        )
        for shard in shards {
            await shard.register(id, identity: identity, sink: sink, budget: budget, settings: settings, renamed: renamed)
        }
        metrics.connections.increment()
        sink.onOverflow { await self.cutOff(id) }
        let welcome = ServerFrame.welcome(
            .init(
                user: ConversationMember(id: identity.userID, name: identity.name, online: true, isBot: identity.isBot), serverTime: now(),
                config: .init(
                    activityTTL: configuration.typing.activityTTL.wholeMilliseconds,
                    refreshInterval: configuration.typing.refreshInterval.wholeMilliseconds,
                    idleTimeout: configuration.typing.idleTimeout.wholeMilliseconds, storesMessages: configuration.storage.storesMessages,
                    pingInterval: configuration.sockets.pingInterval.wholeMilliseconds,
                    maxMessageLength: Int64(configuration.messages.maxLength), maxFrameSize: Int64(configuration.sockets.maxFrameSize),
                    serverVersion: TypewireVersion.current
                )
            ))
        sink.enqueue(Self.encode(welcome))
        metrics.sent("welcome")
        if firstDevice { await tell(.connection(user: identity.userID, online: true, shown: settings.sharesPresence)) }
        return id
    }

    /// Forgets a closed socket in every shard: its activity is cleared at once, and if it was the user's
    /// last socket, the user goes offline. The socket's place against the user's cap is free again.
    /// - Parameter wentAway: The peer's close said it goes away (1001: its app went to the background, a
    ///   page was left): the user, if that was their last socket, shows online for
    ///   ``ServerConfiguration/Sockets/presenceGrace`` more, and a socket of theirs back within it shows
    ///   nothing to others. A new message's webhook counts them offline at once.
    public func disconnect(_ id: ConnectionID, wentAway: Bool = false) async {
        await stopServing(id, wentAway: wentAway)
        userSockets.withLockedValue { $0.release(id) }
    }

    /// Forgets a socket that reads too slowly to follow (its sink overflowed, and closes it within the close
    /// timeout) at once, as if it had closed: the others see the user's activity cleared (and presence
    /// offline) now, not when the socket is gone. It holds its place against the user's cap until then
    /// (``disconnect(_:)``).
    func cutOff(_ id: ConnectionID) async {
        guard await stopServing(id) else { return }
        metrics.cutOff.increment()
    }

    /// Forgets a socket in every shard, once.
    /// - Returns: Whether this call forgot it (false: it was forgotten already).
    @discardableResult
    private func stopServing(_ id: ConnectionID, wentAway: Bool = false) async -> Bool {
        let holds = wentAway && configuration.sockets.presenceGrace > .zero
        guard let forgotten = await shards[0].forget(id, wentAway: holds) else { return false }
        for shard in shards.dropFirst() { await shard.forget(id, wentAway: holds) }
        forgotten.sink.finish()
        metrics.connections.decrement()
        let user = forgotten.user
        let departure = userSockets.withLockedValue { $0.stopServing(of: user, wentAway: holds) }
        if case .stays = departure { return true }
        // A bot's replies outlive its last socket for the reply timeout: it may reconnect and go on; if it
        // does not, each reply's timer ends it for everyone (`OpenReplies`).
        switch departure {
        case .stays: break
        case .offline: await tellOthersOffline(user)
        case .held(let hold):
            let grace = configuration.sockets.presenceGrace
            Task {
                try? await Task.sleep(for: grace)
                await endPresenceHold(hold, of: user)
            }
        }
        return true
    }

    /// The presence grace of hold `hold` ran out: the user goes offline, unless a socket of theirs came back.
    /// The cluster and the webhooks are told first, so that a socket opened meanwhile is told after it.
    private func endPresenceHold(_ hold: Int, of user: String) async {
        guard userSockets.withLockedValue({ $0.endHold(hold, of: user) }) else { return }
        await tellOthersOffline(user)
        for shard in shards { await shard.endPresenceHold(of: user) }
    }

    /// The user has no socket on this node any more: the store records when they were last seen, and the
    /// other nodes and the app's backend are told. A store that fails leaves the earlier last seen (logged).
    private func tellOthersOffline(_ user: String) async {
        do {
            try await store.recordLastSeen(of: user, at: LastSeen.floored(now()))
        } catch {
            logger.storeFailed("recording when a user was last seen failed", error: error, metadata: ["user": "\(user)"])
        }
        await tell(.connection(user: user, online: false, shown: true))
    }

    /// Tells the other nodes and the app's backend of a change this node made, each once (``NodeChange``).
    private func tell(_ change: NodeChange) async {
        for event in change.clusterEvents { cluster?.publish(event) }
        guard let webhooks, let payload = change.webhookPayload, webhooks.wants(payload.type) else { return }
        // The one check the change cannot make itself: a user with a socket on another node neither came
        // online nor went offline.
        if case .connection(let user, _, _) = change, await shards[0].isConnectedElsewhere(user) { return }
        webhooks.record(payload)
    }

    /// Closes every socket with the going-away code and takes no socket any more: the server is stopping.
    /// Returns once every socket closed (a peer that does not answer is waited for no longer than the close
    /// timeout).
    public func shutDown() async {
        shuttingDown.store(true, ordering: .relaxed)
        await closeAll(reason: "server shutting down")
    }

    /// Closes every socket with the going-away code, so clients reconnect elsewhere or later.
    public func closeAll(reason: String) async {
        await shards[0].closeAll(reason: reason)  // every shard knows every socket
    }

    // MARK: Frames and timers

    /// Handles one frame from an authenticated socket in its conversation's shard. The socket's state machine has
    /// already turned away frames past their budgets (`InboundGate`).
    /// - Parameters:
    ///   - readAt: When the socket read the frame, to time its way to the shard (``StageTimings``).
    ///   - isolation: Where the caller runs (a socket's work runs on the shard of its loop): the
    ///     call goes from there to the conversation's shard, without a thread of the global executor between.
    public func handle(
        _ frame: ClientFrame, from id: ConnectionID, readAt: NIODeadline? = nil, isolation: isolated (any Actor)? = #isolation
    ) async {
        await shard(of: frame).handle(frame, from: id, readAt: readAt)
    }

    /// Handles a frame at once on `shard`, when its conversation is that shard's and nothing in it waits for
    /// the store (``HubShard/handleAtOnce(_:from:readAt:)``).
    /// - Returns: false, having done nothing, when it must go through ``handle(_:from:readAt:isolation:)``.
    func handleAtOnce(_ frame: ClientFrame, from id: ConnectionID, readAt: NIODeadline? = nil, on shard: isolated HubShard) -> Bool {
        guard self.shard(of: frame) === shard else { return false }
        return shard.handleAtOnce(frame, from: id, readAt: readAt)
    }

    /// Drops activity whose time ran out in every shard and tells the subscribers.
    /// - Returns: When the next entry expires (server milliseconds), if any.
    @discardableResult
    public func expire() async -> Int64? {
        var next: Int64?
        for shard in shards {
            if let time = await shard.expire() { next = min(next ?? time, time) }
        }
        return next
    }

    /// Runs every shard's expiry sweep, each a timer of its loop, until the calling task is cancelled.
    public func runExpiry() async {
        await withTaskGroup(of: Void.self) { group in
            for shard in shards { group.addTask { await shard.runExpiry() } }
        }
    }

    // MARK: Changes made through REST

    /// A participant joined: they may subscribe from now on.
    public func participantAdded(_ user: String, to conversation: String) async {
        await membersChanged(in: conversation, joined: [user], left: [])
    }

    /// A participant left or was removed: their activity is cleared and their subscriptions end at once.
    public func participantRemoved(_ user: String, from conversation: String) async {
        await membersChanged(in: conversation, joined: [], left: [user])
    }

    /// Participants joined and left a conversation (a new conversation: all of them joined): those who left
    /// are removed as by ``participantRemoved(_:from:)``, on every node, and the app's backend hears of the
    /// change once.
    public func membersChanged(in conversation: String, joined: [String], left: [String]) async {
        await tell(.members(conversation: conversation, joined: joined, left: left))
        await applyMembers(of: conversation, joined: joined, left: left)
    }

    /// A user made a conversation: nobody follows it yet, so only the app's backend hears of its members.
    public func conversationCreated(_ conversation: String, members: [String]) async {
        await tell(.members(conversation: conversation, joined: members, left: [], created: true))
    }

    /// A conversation was deleted: each former participant is removed as by ``participantRemoved(_:from:)``
    /// (activity cleared, subscriptions ended at once), on every node.
    public func conversationDeleted(_ conversation: String, participants: [String]) async {
        await tell(.members(conversation: conversation, joined: [], left: participants, deleted: true))
        await applyMembers(of: conversation, joined: [], left: participants)
    }

    private func applyMembers(of conversation: String, joined: [String], left: [String]) async {
        let shard = shard(for: conversation)
        for user in joined { await shard.applyParticipantAdded(user, to: conversation) }
        for user in left { await shard.applyParticipantRemoved(user, from: conversation) }
    }

    /// A user turned sharing their typing on or off; off clears what they were doing everywhere.
    public func sharingChanged(_ shares: Bool, for user: String) async {
        await tell(.typingSharing(user: user, shares: shares))
        for shard in shards { await shard.applySharingChanged(shares, for: user) }
    }

    /// A user changed what they show of their reading (the store holds it): every node's shards with sockets
    /// of theirs take it from the store.
    public func readReceiptsChanged(for user: String) async {
        await tell(.readReceipts(user: user))
        for shard in shards { await shard.rereadSettings(of: user) }
    }

    /// A user's name or role was recorded anew (REST, or the server API): participant lists read before are
    /// read again.
    public func userRecorded(_ user: String) async {
        for shard in shards { await shard.forgetNames(of: user) }
    }

    /// A user turned sharing their presence on or off: they go offline (or come online) for everyone at once,
    /// the server API included. Every node applies it to the user's sockets it has, and a node with sockets of
    /// the user tells the others the user's presence as it is now to be shown.
    public func presenceSharingChanged(_ shares: Bool, for user: String) async {
        await tell(.presenceSharing(user: user, shares: shares))
        await applyPresenceSharing(shares, for: user)
    }

    /// Another node said a user changed whether they share their presence: what the bus says is only that
    /// something changed; the store says what (docs/CLUSTER.md). A store that cannot answer changes nothing
    /// (the minute's re-check reads it again).
    private func rereadPresenceSharing(of user: String) async {
        let stored: StoredUser?
        do { stored = try await store.user(user) } catch { return }
        await applyPresenceSharing(stored?.sharesPresence ?? true, for: user)
    }

    private func applyPresenceSharing(_ shares: Bool, for user: String) async {
        for shard in shards { await shard.applyPresenceSharingChanged(shares, for: user) }
        guard userSockets.withLockedValue({ $0.isServed(user) }) else { return }
        await tell(.presenceShown(user: user, online: shares))
    }

    /// A user blocked or unblocked another; both sides' subscriptions are brought up to date at once.
    public func blockChanged(_ isBlocked: Bool, user: String, by blocker: String) async {
        await tell(.block(blocker: blocker, user: user, blocked: isBlocked))
        for shard in shards { await shard.applyBlockChanged(isBlocked, user: user, by: blocker) }
    }

    // MARK: Reads for the REST and server APIs

    /// Who is active in a conversation now, as its `activity` frame carries it (no viewer's blocks applied).
    public func activity(in conversation: String) async -> ActivityUpdate {
        await shard(for: conversation).activity(in: conversation)
    }

    /// Whether a user has a socket open on any node and shares their presence.
    public func presence(of user: String) async -> Bool {
        await shards[0].isShownOnline(user)
    }

    /// Which of these users are online, here or on another node.
    func onlineUsers(among users: [String]) async -> Set<String> {
        await shards[0].onlineUsers(among: users)
    }

    /// Those of `users` connected here who share their presence with nobody.
    func onlineButHiding(among users: [String]) async -> Set<String> {
        await shards[0].onlineButHiding(among: users)
    }

    // MARK: Cluster

    /// Applies what another node of the cluster reported: an event of one conversation in its shard, an
    /// event of a user or a node in every shard.
    func apply(_ envelope: ClusterEnvelope) async {
        metrics.cluster.eventsReceived.increment()
        guard let shards = shards(for: envelope.event) else {
            guard case .presenceSharing(let user, _) = envelope.event else { return }
            return await rereadPresenceSharing(of: user)
        }
        for shard in shards { await shard.apply(envelope) }
    }

    /// Hands what another node reported to the shards it concerns, from any thread and without waiting: each
    /// shard applies it on its loop, after what was handed to it before (the NATS bus, whose messages arrive
    /// on an event loop in order, calls this for each event: no task and no hop back per event).
    func dispatch(_ envelope: ClusterEnvelope) {
        metrics.cluster.eventsReceived.increment()
        guard let shards = shards(for: envelope.event) else {
            guard case .presenceSharing(let user, _) = envelope.event else { return }
            Task { await rereadPresenceSharing(of: user) }
            return
        }
        for shard in shards { shard.enqueue(envelope) }
    }

    /// The shards an event from another node concerns: its conversation's (a membership change's too, which
    /// every node hears), or all; nil for a change of presence sharing, which the hub applies itself.
    private func shards(for event: ClusterEvent) -> [HubShard]? {
        switch event {
        case .presenceSharing: nil
        case .membership(let conversation, _, _): [shard(for: conversation)]
        default: event.conversation.map { [shard(for: $0)] } ?? shards
        }
    }

    /// Makes who is online on other nodes what the cluster's table says, for these nodes (all when nil):
    /// after the bus came back, events may have been lost.
    func replaceRemotePresence(_ rows: [(node: String, user: String)], of nodes: Set<String>?) async {
        for shard in shards { await shard.replaceRemotePresence(rows, of: nodes) }
    }

    /// How often a node of a cluster reads its followed conversations' participants and its users' sharing
    /// again, whatever the bus said: the bound on how long an event the bus lost can be missed.
    static let recheckInterval: Duration = .seconds(60)

    /// Reads again from the store what the bus may have failed to tell (``HubShard/recheckFromStore()``).
    func recheckFromStore() async {
        for shard in shards { await shard.recheckFromStore() }
    }

    /// ``recheckFromStore()`` every ``recheckInterval``, until the task is cancelled.
    func recheckFromStorePeriodically() async {
        while (try? await Task.sleep(for: Self.recheckInterval)) != nil { await recheckFromStore() }
    }

    /// Sends this node's activity in every conversation again (the bus came back).
    func republishActivity() async {
        for shard in shards { await shard.republishActivity() }
    }

    /// Ends the events for the other nodes (on shutdown, after the sockets closed); the bus then says
    /// goodbye, and the other nodes forget this node's users at once.
    func leaveCluster() {
        cluster?.finish()
    }

    /// A node stopped sending heartbeats: this node forgets it and tells the others.
    func nodeDied(_ node: String) async {
        cluster?.publish(.nodeDead(node: node))
        for shard in shards { await shard.nodeGone(node) }
    }

    /// Who is online on other nodes, read from the cluster's table when this node starts.
    func loadRemotePresence(_ rows: [(node: String, user: String)]) async {
        for shard in shards { await shard.loadRemotePresence(rows) }
    }

    /// A frame encoded once for every socket it goes to.
    static func encode(_ frame: ServerFrame) -> OutboundFrame {
        HubShard.encode(frame)
    }
}
