import Foundation
import Logging
import TypewireCore

/// The real-time heart of one node: connections, subscriptions, activity, presence and fan-out.
///
/// An actor: every frame from every socket passes through it in order. Each update of a conversation's
/// activity is encoded once and the same bytes go to every subscriber. The hub never writes to a socket
/// itself: each connection drains its own outbox, so a slow reader cannot stall the hub.
public actor Hub {
    /// One socket's state.
    struct Connection {
        var identity: Identity
        var outbox: any Outbox
        var subscriptions: Set<String> = []
        /// Lookups of conversations the user turned out not to be in.
        var unknownConversationLimiter: RateLimiter
        /// For a user who blocked someone: the activity each subscribed conversation last showed this
        /// socket, so that a change of a blocked user alone sends nothing (it would tell them it happened).
        var activityViews: [String: [ActivityEntry]] = [:]
    }

    let store: any ChatStore
    /// The hub's counters.
    public nonisolated let metrics: HubMetrics
    private let configuration: ServerConfiguration
    let now: @Sendable () -> Int64
    let logger: Logger
    var connections: [ConnectionID: Connection] = [:]
    private var nextConnectionID: ConnectionID = 1
    var subscribers: [String: Set<ConnectionID>] = [:]
    /// Sockets whose subscription reads the store, and what was broadcast meanwhile.
    private var joining = JoiningSubscribers()
    /// Sockets each user opened lately.
    private var handshakes: HandshakeBudget
    var members = MembershipCache()
    var connectionsOfUser: [String: Set<ConnectionID>] = [:]
    /// Connected users who turned sharing their typing off (loaded on connect, dropped on the last close).
    var notSharing: Set<String> = []
    /// Whom each connected user has blocked (loaded on connect, dropped on the last close).
    var blocks: [String: Set<String>] = [:]
    var board: ActivityBoard
    /// Paces the activity updates of large groups.
    private var pacer: ActivityPacer
    /// Counts membership changes, so that a participant list read from the store during a change is not cached.
    private var membershipChanges = 0
    /// Replies being streamed.
    private var streams = OpenReplies()
    /// Where events for the other nodes of a cluster go; nil on a single node.
    let cluster: ClusterOutbox?
    /// For each user online on other nodes of the cluster, those nodes.
    var remoteOnline: [String: Set<String>] = [:]
    /// The server is shutting down: no socket is taken any more.
    private var shuttingDown = false

    /// Creates a hub.
    /// - Parameters:
    ///   - store: Where conversations and messages live.
    ///   - configuration: Limits and intervals.
    ///   - metrics: Where the counters go.
    ///   - cluster: Where events for the other nodes go, when the node is part of a cluster.
    ///   - now: The server's clock in milliseconds since 1970; injected for tests.
    public init(
        store: any ChatStore, configuration: ServerConfiguration, metrics: HubMetrics = HubMetrics(),
        logger: Logger = Logger(label: "typewire.hub"), cluster: ClusterOutbox? = nil,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) }
    ) {
        self.store = store
        self.metrics = metrics
        self.configuration = configuration
        self.logger = logger
        self.now = now
        self.handshakes = HandshakeBudget(rate: configuration.handshakeRate, burst: configuration.handshakeBurst)
        self.board = ActivityBoard(ttl: configuration.activityTTL)
        self.pacer = ActivityPacer(
            interval: configuration.largeGroupInterval, groupSize: configuration.largeGroupSize,
            deliveriesPerSecond: configuration.largeGroupDeliveries
        )
        self.cluster = cluster
    }

    // MARK: Connections

    /// Registers an authenticated socket and answers with `welcome`.
    ///
    /// The handshake reads what the store knows of the user (settings and blocks, on SQLite's reader
    /// connections, beside any writes) and writes the user only when the token's name or role changed:
    /// a reconnecting user costs no disk write.
    /// - Parameters:
    ///   - identity: Who the socket's token named.
    ///   - outbox: Where the hub queues the socket's frames, and closes it with the going-away code (1001) for
    ///     a shutdown or when it reads too slowly to follow (the outbox overflowed).
    /// - Returns: The connection's id, for every later call.
    /// - Throws: ``ConnectRefusal``: the user opened sockets faster than ``ServerConfiguration/handshakeRate``
    ///   (checked first, so a user reconnecting in a loop costs no store read), already has
    ///   ``ServerConfiguration/maxSocketsPerUser`` sockets, or the store cannot be read now (the client retries later).
    public func connect(_ identity: Identity, outbox: any Outbox) async throws(ConnectRefusal) -> ConnectionID {
        guard !shuttingDown else { throw .shuttingDown }
        guard handshakes.allow(identity.userID, now: now()) else { throw .tooManyHandshakes(rate: configuration.handshakeRate) }
        let limit = configuration.maxSocketsPerUser
        guard connectionsOfUser[identity.userID, default: []].count < limit else { throw .tooManySockets(limit: limit) }
        let stored: StoredUser?
        let blocked: Set<String>
        do {
            async let user = store.recordIfChanged(identity)
            async let blockedUsers = store.blockedUsers(of: identity.userID)
            (stored, blocked) = try await (user, blockedUsers)
        } catch {
            logger.error("the store could not be read for a handshake", metadata: ["error": "\(error)"])
            throw .storeUnavailable
        }
        let shares = stored?.sharesTyping ?? true
        // A user the server API made a bot is one whatever the token says; a token without a name keeps the stored one.
        var identity = identity
        if stored?.isBot == true { identity.isBot = true }
        if identity.name == nil { identity.name = stored?.name }
        // Checked again after the waits: the server may be shutting down, and other sockets of the user may
        // have connected meanwhile.
        guard !shuttingDown else { throw .shuttingDown }
        guard connectionsOfUser[identity.userID, default: []].count < limit else { throw .tooManySockets(limit: limit) }
        if shares { notSharing.remove(identity.userID) } else { notSharing.insert(identity.userID) }
        blocks[identity.userID] = blocked.isEmpty ? nil : blocked
        let id = nextConnectionID
        nextConnectionID += 1
        connections[id] = Connection(
            identity: identity, outbox: outbox,
            unknownConversationLimiter: RateLimiter(
                rate: configuration.unknownConversationRate, burst: configuration.unknownConversationBurst
            )
        )
        outbox.onOverflow { await self.cutOff(id) }
        let firstDevice = connectionsOfUser[identity.userID, default: []].isEmpty
        connectionsOfUser[identity.userID, default: []].insert(id)
        let welcome = ServerFrame.welcome(.init(
            user: Participant(id: identity.userID, name: identity.name, online: true), serverTime: now(),
            config: .init(
                activityTTL: configuration.activityTTL, refreshInterval: configuration.refreshInterval,
                idleTimeout: configuration.idleTimeout, storesMessages: configuration.storesMessages
            )
        ))
        deliver(Self.encode(welcome), as: "welcome", to: connections[id]!.outbox)
        metrics.connections.increment()
        if firstDevice {
            cluster?.publish(.presence(user: identity.userID, online: true))
            if remoteOnline[identity.userID] == nil { announcePresence(of: identity.userID, online: true) }
        }
        return id
    }

    /// Forgets a socket that reads too slowly to follow (its outbox filled up) at once, as if it had
    /// closed, and closes it with 1001. The close frame reaches the client only after what the kernel
    /// already holds for it, so the others do not wait for that: they see the user's activity cleared
    /// (and presence offline) now.
    func cutOff(_ id: ConnectionID) async {
        guard let outbox = connections[id]?.outbox else { return }
        disconnect(id)
        // What is already on its way drains as the peer reads, the close frame last: no time limit.
        await outbox.close(reason: "the connection read too slowly to follow; reconnect", shutdown: false)
    }

    /// Forgets a closed socket: its activity is cleared at once, and if it was the user's last
    /// connection, the user goes offline.
    public func disconnect(_ id: ConnectionID) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        connection.outbox.finish()
        metrics.connections.decrement()
        metrics.subscriptions.decrement(by: Double(connection.subscriptions.count))
        for conversation in connection.subscriptions { removeSubscriber(id, from: conversation) }
        for conversation in board.clear(connection: id) { publishActivity(of: conversation) }
        let user = connection.identity.userID
        connectionsOfUser[user]?.remove(id)
        if connectionsOfUser[user]?.isEmpty == true {
            connectionsOfUser[user] = nil
            streams.forget(bot: user)
            blocks[user] = nil  // reloaded from the store when the user connects again
            notSharing.remove(user)
            cluster?.publish(.presence(user: user, online: false))
            if remoteOnline[user] == nil { announcePresence(of: user, online: false) }
        }
    }

    // MARK: Changes made through REST

    /// A participant joined: they may subscribe from now on.
    public func participantAdded(_ user: String, to conversation: String) {
        cluster?.publish(.membership(conversation: conversation, user: user, added: true))
        applyParticipantAdded(user, to: conversation)
    }

    func applyParticipantAdded(_ user: String, to conversation: String) {
        membershipChanges += 1
        members.add(user, to: conversation)
    }

    /// A participant left or was removed: their activity is cleared and their subscriptions end at once.
    public func participantRemoved(_ user: String, from conversation: String) {
        cluster?.publish(.membership(conversation: conversation, user: user, added: false))
        applyParticipantRemoved(user, from: conversation)
    }

    func applyParticipantRemoved(_ user: String, from conversation: String) {
        membershipChanges += 1
        members.remove(user, from: conversation)
        if board.clear(user: user, in: conversation) { publishActivity(of: conversation) }
        for id in connectionsOfUser[user] ?? [] where connections[id]?.subscriptions.contains(conversation) == true {
            connections[id]?.subscriptions.remove(conversation)
            connections[id]?.activityViews[conversation] = nil
            metrics.subscriptions.decrement()
            removeSubscriber(id, from: conversation)
            reply(to: id, .init(code: .unknownConversation, message: "You are no longer a participant of this conversation.", ref: conversation, request: "subscribe"))
        }
    }

    /// A user turned sharing their typing on or off; off clears what they were doing everywhere.
    public func sharingChanged(_ shares: Bool, for user: String) {
        cluster?.publish(.sharing(user: user, shares: shares))
        applySharingChanged(shares, for: user)
    }

    func applySharingChanged(_ shares: Bool, for user: String) {
        if !shares { for conversation in board.clear(user: user) { publishActivity(of: conversation) } }
        guard connectionsOfUser[user] != nil else { return }  // loaded from the store when the user connects
        if shares { notSharing.remove(user) } else { notSharing.insert(user) }
    }

    /// A user blocked or unblocked another; the blocker's subscriptions are brought up to date at once.
    public func blockChanged(_ isBlocked: Bool, user: String, by blocker: String) {
        cluster?.publish(.block(blocker: blocker, user: user, blocked: isBlocked))
        applyBlockChanged(isBlocked, user: user, by: blocker)
    }

    func applyBlockChanged(_ isBlocked: Bool, user: String, by blocker: String) {
        guard connectionsOfUser[blocker] != nil else { return }  // loaded from the store when the blocker connects
        if isBlocked {
            blocks[blocker, default: []].insert(user)
        } else {
            blocks[blocker]?.remove(user)
            if blocks[blocker]?.isEmpty == true { blocks[blocker] = nil }
        }
        // The blocker's view changes only where the user is doing something now: only there is a frame sent.
        for id in connectionsOfUser[blocker] ?? [] {
            guard blocks[blocker] != nil else {
                for conversation in connections[id]?.subscriptions ?? [] where board.isActive(user, in: conversation) {
                    deliver(Self.encode(.activity(activityUpdate(of: conversation, seenBy: blocker))), as: "activity", to: connections[id]!.outbox)
                }
                connections[id]?.activityViews = [:]  // everything the blocker sees is shared again
                continue
            }
            for conversation in connections[id]?.subscriptions ?? [] {
                sendActivityView(of: conversation, to: id, send: board.isActive(user, in: conversation) ? true : nil)
            }
        }
    }

    // MARK: Frames

    /// Handles one frame from an authenticated socket. The socket's session has already turned away
    /// frames past their budgets (`InboundGate`).
    public func handle(_ frame: ClientFrame, from id: ConnectionID) async {
        metrics.received(frame.type)
        if !configuration.storesMessages, let refusal = Self.typingOnlyRefusal(of: frame) { return reply(to: id, refusal) }
        switch frame {
        case .hello:
            reply(to: id, .init(code: .invalidField, message: "This socket has already said hello.", ref: "hello", request: "hello"))
        case .subscribe(let subscribe):
            await self.subscribe(id, to: subscribe.conversation)
        case .unsubscribe(let unsubscribe):
            if connections[id]?.subscriptions.remove(unsubscribe.conversation) != nil { metrics.subscriptions.decrement() }
            connections[id]?.activityViews[unsubscribe.conversation] = nil
            removeSubscriber(id, from: unsubscribe.conversation)
        case .activity(let request):
            let arrival = ContinuousClock.now
            await setActivity(request.activity, in: request.conversation, from: id)
            metrics.relayLatency.record(ContinuousClock.now - arrival)
        case .send(let send):
            await self.send(send, from: id)
        case .edit(let edit):
            await self.edit(edit, from: id)
        case .stream(let stream):
            await self.stream(stream, from: id)
        }
    }

    private func subscribe(_ id: ConnectionID, to conversation: String) async {
        guard let user = connections[id]?.identity.userID else { return }
        let limit = configuration.maxSubscriptionsPerSocket
        guard connections[id]!.subscriptions.count < limit || connections[id]!.subscriptions.contains(conversation) else {
            return reply(to: id, .init(code: .forbidden, message: "This socket already follows \(limit) conversations; unsubscribe from one first.", ref: conversation, request: "subscribe"))
        }
        guard await admitParticipant(user, of: conversation, from: id, ref: conversation, request: "subscribe") else { return }
        // Messages fanned out while the history is read are held for this socket (`JoiningSubscribers`).
        if subscribers[conversation]?.contains(id) != true { joining.begin(id, in: conversation) }
        let participants: [Participant]
        let messages: [ChatMessage]
        do {
            participants = try await store.participants(of: conversation)
            messages = configuration.storesMessages ? Self.newest(
                try await store.recentMessages(of: conversation, limit: configuration.recentMessages), within: configuration.maxRecentBytes
            ) : []
        } catch {
            _ = joining.end(id, in: conversation)
            logger.error("subscribe failed", metadata: ["conversation": "\(conversation)", "error": "\(error)"])
            return reply(to: id, .init(code: .unavailable, message: "The conversation could not be read; try again.", ref: conversation, request: "subscribe"))
        }
        let heldMeanwhile = joining.end(id, in: conversation, history: messages)
        // Closed, or removed from the conversation, while the store answered.
        guard connections[id] != nil, members[conversation]?.contains(user) ?? true else {
            return reply(to: id, Self.unknownConversation(conversation, ref: conversation, request: "subscribe"))
        }
        subscribers[conversation, default: []].insert(id)
        let blocked = blocks[user] ?? []
        let online = participants.map {
            Participant(id: $0.id, name: $0.name, online: isOnline($0.id) && !blocked.contains($0.id))
        }
        let view = activityUpdate(of: conversation, seenBy: user)
        let subscribed = ServerFrame.subscribed(.init(
            conversation: conversation, participants: online, activity: view,
            recentMessages: messages, presence: participants.count >= configuration.largeGroupSize ? false : nil
        ))
        if connections[id]!.subscriptions.insert(conversation).inserted { metrics.subscriptions.increment() }
        if blocks[user] != nil { connections[id]!.activityViews[conversation] = view.entries }
        deliver(Self.encode(subscribed), as: "subscribed", to: connections[id]!.outbox)
        for frame in heldMeanwhile { connections[id]!.outbox.enqueue(frame) }
    }

    private func setActivity(_ activity: Activity, in conversation: String, from id: ConnectionID) async {
        guard let identity = connections[id]?.identity else { return }
        if let detail = activity.detail, detail.count > configuration.maxActivityDetailLength {
            let limit = configuration.maxActivityDetailLength
            return reply(to: id, .init(code: .tooLarge, message: "The activity's \"detail\" has \(detail.count) characters; the limit is \(limit).", ref: "activity", request: "activity"))
        }
        // A stop only removes what this socket was doing there, which it was admitted to: no lookup.
        if activity.isActive {
            guard await admitParticipant(identity.userID, of: conversation, from: id, ref: "activity", request: "activity") else { return }
        }
        guard connections[id] != nil, !notSharing.contains(identity.userID) else { return }
        if board.set(activity, in: conversation, connection: id, user: identity.userID, name: identity.name, now: now()) {
            publishActivity(of: conversation)
        }
    }

    private func send(_ send: ClientFrame.Send, from id: ConnectionID) async {
        guard let identity = connections[id]?.identity else { return }
        guard send.text.count <= configuration.maxMessageLength else {
            return reply(to: id, .init(
                code: .tooLarge, message: "The message has more than \(configuration.maxMessageLength) characters.", ref: send.clientMessageId, request: "send"
            ))
        }
        guard !send.clientMessageId.isEmpty else {
            return reply(to: id, .init(code: .invalidField, message: "The 'send' frame needs a non-empty \"clientMessageId\".", ref: "send", request: "send"))
        }
        guard await admitParticipant(identity.userID, of: send.conversation, from: id, ref: send.clientMessageId, request: "send") else { return }
        // The stop goes out before the message, so no one sees "is typing" after it arrives.
        if board.clear(user: identity.userID, in: send.conversation) { publishActivity(of: send.conversation) }
        let stored: StoredMessage
        do {
            stored = try await store.storeMessage(
                conversation: send.conversation, sender: identity, clientMessageId: send.clientMessageId, text: send.text, sentAt: now()
            )
        } catch {
            logger.error("storing a message failed", metadata: ["error": "\(error)"])
            return reply(to: id, .init(code: .unavailable, message: "The message was not stored: the server cannot write to its storage now. It was not sent to anyone; try again later.", ref: send.clientMessageId, request: "send"))
        }
        if stored.isNew { deliverMessage(stored.message) }
        if send.clientMessageId.hasPrefix("stream-") {
            // A reply whose stream was cut off ends as a whole message: its partial text is not needed.
            streams.remove(StreamKey(conversation: send.conversation, messageId: String(send.clientMessageId.dropFirst(7)), bot: identity.userID))
        }
        guard let outbox = connections[id]?.outbox else { return }
        deliver(Self.encode(.ack(.init(clientMessageId: send.clientMessageId, messageId: stored.message.id))), as: "ack", to: outbox)
    }

    private func edit(_ edit: ClientFrame.Edit, from id: ConnectionID) async {
        guard let identity = connections[id]?.identity else { return }
        guard edit.text.count <= configuration.maxMessageLength else {
            return reply(to: id, .init(code: .tooLarge, message: "The message has more than \(configuration.maxMessageLength) characters.", ref: edit.messageId, request: "edit"))
        }
        guard await admitParticipant(identity.userID, of: edit.conversation, from: id, ref: edit.messageId, request: "edit") else { return }
        let edited: ChatMessage?
        do {
            edited = try await store.editMessage(edit.messageId, in: edit.conversation, by: identity.userID, text: edit.text, editedAt: now())
        } catch {
            logger.error("editing a message failed", metadata: ["error": "\(error)"])
            return reply(to: id, .init(code: .unavailable, message: "The message was not edited: the server cannot write to its storage now; try again later.", ref: edit.messageId, request: "edit"))
        }
        guard let edited else {
            return reply(to: id, .init(code: .forbidden, message: "You can edit only your own messages in this conversation.", ref: edit.messageId, request: "edit"))
        }
        deliverMessage(edited)
    }

    /// Sends a new or edited message to the conversation's subscribers, here and on the other nodes.
    private func deliverMessage(_ message: ChatMessage) {
        broadcast(Self.encode(.message(message)), as: "message", to: message.conversation, message: message)
        cluster?.publish(.message(message))  // by reference if too large for the bus (`ClusterPayload`)
    }

    /// A bot streams a reply: each part is fanned out as it comes; the final part stores the whole reply as
    /// a message and clears the bot's activity.
    private func stream(_ part: ClientFrame.Stream, from id: ConnectionID) async {
        guard let identity = connections[id]?.identity else { return }
        guard identity.isBot else {
            return reply(to: id, .init(code: .forbidden, message: "Only bots (a token with the bot role, or a user the server API made a bot) stream replies; send a message instead.", ref: part.messageId, request: "stream"))
        }
        guard await admitParticipant(identity.userID, of: part.conversation, from: id, ref: part.messageId, request: "stream") else { return }
        let key = StreamKey(conversation: part.conversation, messageId: part.messageId, bot: identity.userID)
        let time = now()
        streams.forgetSilent(of: identity.userID, before: time - configuration.replyTimeout)
        let known = streams[key]
        guard known != nil || part.isFinal || streams.count(of: identity.userID) < configuration.maxOpenReplies else {
            let limit = configuration.maxOpenReplies
            return reply(to: id, .init(code: .rateLimited, message: "This bot streams \(limit) replies already; finish one before starting another.", ref: part.messageId, request: "stream"))
        }
        // The final part may carry the whole reply: then parts refused or lost on the way do not matter.
        let text = part.isFinal ? part.text ?? (known ?? "") + part.delta : (known ?? "") + part.delta
        guard text.count <= configuration.maxMessageLength else {
            streams.remove(key)
            return reply(to: id, .init(code: .tooLarge, message: "The reply has more than \(configuration.maxMessageLength) characters.", ref: part.messageId, request: "stream"))
        }
        if part.isFinal { streams.remove(key) } else { streams.set(text, for: key, at: time) }
        let delta = ServerFrame.StreamDelta(
            conversation: part.conversation, messageId: part.messageId, user: identity.userID, delta: part.delta, final: part.isFinal
        )
        broadcast(Self.encode(.stream(delta)), as: "stream", to: part.conversation)
        cluster?.publish(.stream(delta))  // a part too large for the bus is dropped there: the stored reply carries it
        guard part.isFinal else { return }
        await self.send(.init(conversation: part.conversation, clientMessageId: "stream-\(part.messageId)", text: text), from: id)
    }

    // MARK: Shutdown

    /// Closes every socket with the going-away code and takes no socket any more: the server is stopping.
    /// Returns once every socket closed (a peer that does not answer is waited for no longer than the close
    /// timeout).
    public func shutDown() async {
        shuttingDown = true
        await closeAll(reason: "server shutting down")
    }

    /// Closes every socket with the going-away code, so clients reconnect elsewhere or later.
    public func closeAll(reason: String) async {
        let outboxes = connections.values.map(\.outbox)
        await withTaskGroup(of: Void.self) { group in
            for outbox in outboxes { group.addTask { await outbox.close(reason: reason, shutdown: true) } }
        }
    }

    // MARK: Expiry

    /// Drops activity whose time ran out and tells the subscribers.
    /// - Returns: When the next entry expires (server milliseconds), if any.
    @discardableResult
    public func expire() -> Int64? {
        // The other nodes expire this node's entries by themselves, at the same time.
        for conversation in board.expire(now: now()) { publishActivity(of: conversation, sharing: false) }
        return board.nextExpiry
    }

    /// Runs the expiry sweep until cancelled: it sleeps until the earliest `expiresAt`, and never longer
    /// than the ttl, so an entry set while it sleeps (which expires a ttl later) is never missed.
    public func runExpiry() async {
        while !Task.isCancelled {
            let next = expire()
            let wait = min(configuration.activityTTL, max(1, (next ?? .max) - now()))
            try? await Task.sleep(for: .milliseconds(wait))
        }
    }

    // MARK: Fan-out

    /// Tells a conversation's subscribers (and the other nodes of a cluster) that its activity changed.
    /// Large groups get at most one update per ``ServerConfiguration/largeGroupInterval`` (`ActivityPacer`).
    /// - Parameter sharing: Whether to tell the other nodes of a cluster this node's slice (whenever it
    ///   may have changed, except by expiry, which they apply by themselves).
    func publishActivity(of conversation: String, sharing: Bool = true) {
        if sharing, let cluster {
            cluster.publish(.slice(conversation: conversation, entries: board.entries(in: conversation, localOnly: true), serverTime: now()))
        }
        guard let ids = subscribers[conversation], !ids.isEmpty else { return pacer.forget(conversation) }
        switch pacer.change(in: conversation, subscribers: ids.count, now: now()) {
        case .now:
            fanOutActivity(of: conversation)
        case .at(let time):
            scheduleActivity(of: conversation, at: time)
        case .scheduled:
            break
        }
    }

    /// Arms a timer for a large group's paced update.
    private func scheduleActivity(of conversation: String, at time: Int64) {
        let delay = max(1, time - now())
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(delay))
            await self?.sendScheduledActivity(of: conversation)
        }
    }

    /// Sends a large group's paced update if it is due; a timer armed for an update that a message took
    /// early waits for the next one's time.
    private func sendScheduledActivity(of conversation: String) {
        switch pacer.wake(conversation, now: now()) {
        case .due: fanOutActivity(of: conversation)
        case .notYet(let time): scheduleActivity(of: conversation, at: time)
        case .nothing: break
        }
    }

    /// Fans a conversation's activity out: one encoding shared by every subscriber, except those who
    /// blocked someone in it, who get the state without the users they blocked. At most
    /// ``ServerConfiguration/maxActivityEntries`` entries are listed; `total` counts all.
    private func fanOutActivity(of conversation: String) {
        guard let ids = subscribers[conversation], !ids.isEmpty else { return }
        let entries = board.entries(in: conversation)
        let shared = Self.encode(.activity(capped(entries, in: conversation, serverTime: now())))
        var delivered = 0
        for id in ids {
            guard let connection = connections[id] else { continue }
            if blocks[connection.identity.userID] != nil {
                delivered += sendActivityView(of: conversation, to: id, entries: entries) ? 1 : 0
            } else {
                connection.outbox.enqueue(shared)
                delivered += 1
            }
        }
        metrics.sent("activity", count: delivered)
        metrics.fanOutDeliveries.increment(by: Int64(delivered))
    }

    /// Sends a conversation's activity without the users the socket's user blocked, unless it shows
    /// what the socket last got: a change of blocked users alone sends nothing, so it cannot tell the
    /// blocker that they typed.
    /// - Parameter send: Whether to send the view (a block changed it); false sends it only if it differs
    ///   from the last one sent, nil records it without sending (the socket already shows it).
    /// - Returns: Whether a frame was queued.
    @discardableResult
    private func sendActivityView(
        of conversation: String, to id: ConnectionID, entries: [ActivityEntry]? = nil, send: Bool? = false
    ) -> Bool {
        guard let connection = connections[id] else { return false }
        let blocked = blocks[connection.identity.userID] ?? []
        let visible = (entries ?? board.entries(in: conversation)).filter { !blocked.contains($0.user) }
        let changed = visible != connection.activityViews[conversation] ?? []
        connections[id]?.activityViews[conversation] = visible
        guard send == true || (send == false && changed) else { return false }
        connection.outbox.enqueue(Self.encode(.activity(capped(visible, in: conversation, serverTime: now()))))
        return true
    }

    /// An update listing at most ``ServerConfiguration/maxActivityEntries`` of the entries, counting all.
    func capped(_ entries: [ActivityEntry], in conversation: String, serverTime: Int64) -> ActivityUpdate {
        ActivityUpdate(
            conversation: conversation, entries: Array(entries.prefix(configuration.maxActivityEntries)),
            total: entries.count, serverTime: serverTime
        )
    }

    /// The conversation's activity as one user may see it.
    private func activityUpdate(of conversation: String, seenBy viewer: String) -> ActivityUpdate {
        let blocked = blocks[viewer] ?? []
        return capped(board.entries(in: conversation).filter { !blocked.contains($0.user) }, in: conversation, serverTime: now())
    }

    /// Sends the same bytes to every subscriber of a conversation, after its paced activity update if one
    /// is waiting, so that no frame overtakes it (no one sees "is typing" after the message).
    /// Sockets still joining the conversation get the frame after their `subscribed`.
    /// - Parameter message: The message the frame carries, if it is a `message` frame.
    func broadcast(_ frame: OutboundFrame, as type: String, to conversation: String, message: ChatMessage? = nil) {
        joining.hold(frame, message: message, in: conversation)
        if pacer.takeEarly(conversation, now: now()) { fanOutActivity(of: conversation) }
        let ids = subscribers[conversation] ?? []
        for id in ids { connections[id]?.outbox.enqueue(frame) }
        metrics.sent(type, count: ids.count)
        metrics.fanOutDeliveries.increment(by: Int64(ids.count))
    }

    /// Tells the subscribers of the user's conversations, except those who blocked the user, and except
    /// in large groups (``ServerConfiguration/largeGroupSize`` members or more): there every member's
    /// connect would reach every member, so a group's reconnecting members would cost the square of its size.
    func announcePresence(of user: String, online: Bool) {
        for conversation in members.conversations(of: user)
        where members[conversation].map({ $0.count < configuration.largeGroupSize }) ?? false {
            let text = Self.encode(.presence(.init(conversation: conversation, user: user, online: online)))
            for id in subscribers[conversation] ?? [] {
                guard let connection = connections[id], blocks[connection.identity.userID]?.contains(user) != true else { continue }
                deliver(text, as: "presence", to: connection.outbox)
                metrics.fanOutDeliveries.increment()
            }
        }
    }

    func reply(to id: ConnectionID, _ failure: ServerFrame.Failure) {
        guard let outbox = connections[id]?.outbox else { return }
        deliver(Self.encode(.error(failure)), as: "error", to: outbox)
    }

    /// Queues a frame on one socket and counts it.
    func deliver(_ frame: OutboundFrame, as type: String, to outbox: any Outbox) {
        outbox.enqueue(frame)
        metrics.sent(type)
    }

    /// Stops a socket's subscription; a conversation nobody follows any more leaves the caches.
    private func removeSubscriber(_ id: ConnectionID, from conversation: String) {
        guard subscribers[conversation]?.remove(id) != nil, subscribers[conversation]?.isEmpty == true else { return }
        subscribers[conversation] = nil
        members.evict(conversation)
        pacer.forget(conversation)
    }

    /// The participants of a conversation, cached; nil if it does not exist.
    ///
    /// A membership change made while the store answered wins: the answer is then used once but not cached.
    /// - Throws: The store's error: a conversation the store cannot read now is not taken for a missing one.
    func members(of conversation: String) async throws -> Set<String>? {
        if let cached = members[conversation] { return cached }
        let version = membershipChanges
        let participants = try await store.participants(of: conversation)
        guard !participants.isEmpty else { return nil }
        let set = Set(participants.map(\.id))
        if version == membershipChanges { members.cache(set, of: conversation) }
        return members[conversation] ?? set
    }

    /// Whether a user is (still) a participant, checked again after any wait.
    private func isMember(_ user: String, of conversation: String) async throws -> Bool {
        guard try await members(of: conversation)?.contains(user) == true else { return false }
        return members[conversation]?.contains(user) ?? true
    }

    /// Whether a socket's user may act in a conversation; if not, the socket is answered:
    /// `unknown_conversation` for a stranger, `unavailable` (try again) when the store cannot say now.
    ///
    /// A conversation not in the cache costs a store query: a socket whose lookups keep finding nothing
    /// (``ServerConfiguration/unknownConversationRate``) is refused with `rate_limited` without one.
    private func admitParticipant(_ user: String, of conversation: String, from id: ConnectionID, ref: String, request: String) async -> Bool {
        let cached = members[conversation] != nil
        if !cached, connections[id]?.unknownConversationLimiter.allow(now: now()) == false {
            metrics.droppedByRateLimit.increment()
            reply(to: id, .init(code: .rateLimited, message: "Too many frames for conversations you are not in: this one was not looked up; try again later.", ref: ref, request: request))
            return false
        }
        do {
            guard try await isMember(user, of: conversation) else {
                reply(to: id, Self.unknownConversation(conversation, ref: ref, request: request))
                return false
            }
            if !cached { connections[id]?.unknownConversationLimiter.refund() }  // it was not unknown
            return true
        } catch {
            logger.error("reading a conversation's participants failed", metadata: ["error": "\(error)"])
            reply(to: id, .init(code: .unavailable, message: "The server cannot read its storage now; try again shortly.", ref: ref, request: request))
            return false
        }
    }

    private static func unknownConversation(_ conversation: String, ref: String, request: String) -> ServerFrame.Failure {
        .init(code: .unknownConversation, message: "No conversation '\(conversation.prefix(64))' that you are in.", ref: ref, request: request)
    }

    /// The newest of `messages` (oldest first) whose text fits in `bytes`, at least the newest one.
    static func newest(_ messages: [ChatMessage], within bytes: Int) -> [ChatMessage] {
        var total = 0
        let kept = messages.reversed().prefix { message in
            total += message.text.utf8.count
            return total <= bytes
        }
        return messages.suffix(max(kept.count, min(1, messages.count)))
    }

    /// A frame encoded once for every socket it goes to.
    static func encode(_ frame: ServerFrame) -> OutboundFrame {
        OutboundFrame(text: FrameCodec.encodeText(frame))
    }
}
