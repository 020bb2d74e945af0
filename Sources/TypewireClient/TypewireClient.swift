import Foundation
import Logging
import TypewireCore

/// A connection to a Typewire server, for an app.
///
/// Run it for as long as the app wants to be connected (`try await client.run()` in a task; cancel the task
/// to stop). It says hello with a fresh token from the token provider, hands the live socket a fresh one
/// ahead of that token's expiry (`refresh`: no reconnect, no offline blink), reconnects after any drop with
/// exponential backoff and jitter, and after each reconnect subscribes again to every open conversation
/// and sends again every message and edit not yet acknowledged (the server stores each
/// `clientMessageId` once).
///
/// ```swift
/// let client = TypewireClient(url: "ws://127.0.0.1:8080/v1/socket") { try await fetchToken() }
/// let connection = Task { try await client.run() }
/// let chat = await client.conversation("direct-alice-bob")
/// for await state in chat.typing { label.text = state.text ?? "" }
/// ```
public actor TypewireClient {
    /// The client's options.
    public struct Configuration: Sendable {
        /// How long to wait between reconnect attempts.
        public var backoff: Backoff
        /// How typing state is put into words (style, name limit, locale). Default: the app's language
        /// (`TypingLocale.app`), the one its other words are in, English where Typewire has none.
        public var text: TypingText.Configuration
        /// The least time between two `stream` frames of a bot's reply: parts written sooner are sent
        /// together, which keeps a fast writer under the server's message rate (5 a second by default).
        public var streamInterval: Duration
        /// How often the client pings the server; a pong missing at the next ping drops the connection
        /// (then it reconnects), so a socket that died silently (a network switch) is not taken for connected
        /// for long. Default nil: as often as the server pings, as its last `welcome` said (15 s on a first
        /// connection, and with a server that does not say).
        public var pingInterval: Duration?
        /// How many times in a row the server may refuse the client's token (`unauthorized`) before the
        /// client stops and reports ``ConnectionState/failed(_:)``. Default 3. A token provider that throws
        /// does not count: it is asked again after the backoff (the device may be offline).
        public var authenticationAttempts: Int
        /// How long the token provider may take; past it its answer is not waited for, and it is asked again
        /// after the backoff. Default 30 s.
        public var tokenTimeout: Duration
        /// How long a conversation the server does not know is asked for again before its handles end with
        /// ``/TypewireCore/ErrorCode/unknownConversation``: an app's backend may create it a moment after the user opened
        /// it (docs/INTEGRATION.md mirrors conversations from Firestore). Default 30 s.
        public var conversationWait: Duration
        /// How long after ``TypewireClient/enterBackground()`` the socket stays open (a quick switch to
        /// another app and back keeps it); then it closes with 1001 (going away), and the others see the
        /// user offline after the server's presence grace (`--presence-grace`, 5 s). 0 closes it at once. On iOS the client asks the system for that much background time, and closes the socket
        /// early if the system takes it back. Default 10 s.
        public var backgroundGrace: Duration
        /// Whether the client follows the device's network path itself (`NWPathMonitor`, on Apple
        /// platforms only) and connects again at once when the network comes back or changes interface
        /// (``TypewireClient/networkPathUpdated(_:)``). Default true.
        public var followsNetworkPath: Bool
        /// How long a changed network path (another interface or gateway) must stay unchanged before the
        /// socket opened on the old one is dropped and the client connects again: a path that flaps while a
        /// phone walks out of Wi-Fi costs one reconnect, not one per change. Default 1 s.
        public var networkPathSettle: Duration
        /// Whether the client follows the app's lifecycle itself (UIKit's background and foreground
        /// notifications, on iOS only): ``TypewireClient/enterBackground()`` and
        /// ``TypewireClient/enterForeground()`` are called for the app. Default true; set it to false to call
        /// them yourself (from `scenePhase`, say).
        public var followsAppLifecycle: Bool
        /// Where messages not yet acknowledged are kept so that they survive the app being killed, and are
        /// sent again (stored once) when it next runs; nil keeps them in memory only. Default
        /// ``OutboxFile/standard``: a file in Application Support on Apple platforms, nil elsewhere. One
        /// file per client.
        public var outbox: OutboxFile?
        /// Where the server's REST routes are (its `/v1`, e.g. `https://api.example.com/typewire/v1`): a
        /// thread's handle reads the thread's replies there. Default nil: beside the socket's URL, with the
        /// socket's host and path (`wss://host/typewire/v1/socket` gives `https://host/typewire/v1`). Set it
        /// when a proxy serves the socket and the REST routes on different hosts.
        public var restURL: String?

        /// Creates a configuration.
        public init(
            backoff: Backoff = .init(), text: TypingText.Configuration = .init(locale: .app),
            streamInterval: Duration = .milliseconds(250),
            pingInterval: Duration? = nil, backgroundGrace: Duration = .seconds(10), conversationWait: Duration = .seconds(30)
        ) {
            self.conversationWait = conversationWait
            self.authenticationAttempts = 3
            self.tokenTimeout = .seconds(30)
            self.backoff = backoff
            self.text = text
            self.streamInterval = streamInterval
            self.pingInterval = pingInterval
            self.backgroundGrace = backgroundGrace
            self.followsNetworkPath = true
            self.networkPathSettle = .seconds(1)
            self.followsAppLifecycle = true
            self.outbox = .standard
        }
    }

    let url: String
    /// How the socket reaches the server.
    let transport: any SocketTransport
    let token: @Sendable (TokenRequest) async throws -> String
    let configuration: Configuration
    let formatter: TypingText
    /// How this client words typing (``Configuration/text``): the same words for "Seen by" (TypewireUI).
    public nonisolated var typingText: TypingText { formatter }
    let logger: Logger

    /// The connection's decisions (``ClientConnectionStateMachine``); the client runs its actions.
    var machine: ClientConnectionStateMachine
    /// What goes out on the current socket, once it is attached.
    var outgoing: AsyncStream<Outgoing>.Continuation?
    /// A close the machine asked for before its socket was attached.
    var closeAsked: (socket: Int, reason: ClientConnectionStateMachine.CloseReason)?
    /// The token provider's call under way, and the current socket's task.
    var tokenTask: Task<Void, Never>?
    var socketTask: Task<Void, Never>?
    /// Ends the current wait of ``run()`` at once (an event changed the machine's deadline).
    var wake: AsyncStream<Void>.Continuation?
    /// The time the system gives the app in the background (``ClientConnectionStateMachine/Action/beginBackgroundTime``).
    let backgroundTime = BackgroundTime()
    /// Why the server ended conversations' handles (the last reason of each; cleared when one is opened again).
    var endings: [String: TypewireClientError] = [:]
    /// The token the current socket lives by (its hello's, or the last refresh the server accepted).
    private(set) var socketToken: String?
    /// A token sent in a `refresh` and not answered yet.
    private var offeredToken: String?
    /// Waits for the time to refresh the current socket's token (``TokenRefresh``).
    private var refreshTask: Task<Void, Never>?
    /// The server's clock less the device's, from the last `welcome`, in seconds: a token's expiry is the
    /// server's time.
    private var serverClockOffset: Double = 0
    /// How many times a thread's replies were asked for over REST (for tests).
    var repliesFetches = 0
    /// The end of the wait last published as ``ConnectionState/waitingToReconnect(retryIn:)``.
    var publishedWaitEnd: ContinuousClock.Instant?
    /// The number the machine gave the current socket: tells what was asked on it.
    private(set) var socketNumber = 0
    /// Whether the current socket was welcomed: frames are sent only then, and still while it closes (the
    /// machine's link is `.closing` by then), so that a stop sent on the way out reaches the server.
    private(set) var welcomed = false
    /// The messages waiting for their `ack`, as the outbox file keeps them.
    var unsent = UnsentMessages()
    var outboxLoaded = false
    private var currentUser: String?

    /// The user the server's last `welcome` named (nil before the first connection).
    public var userID: String? { currentUser }
    /// The intervals the server asked for in its last `welcome`.
    private(set) var serverConfiguration: ServerFrame.ClientConfiguration?

    /// Whether the server keeps messages: false once a typing-only server (`--no-messages`) welcomed the
    /// client. Then ``ConversationHandle/send(_:)`` and edits throw ``/TypewireCore/ErrorCode/messagesDisabled`` at
    /// once; send messages through the app's own backend and call ``Composer/didSend()``, which stops
    /// the typing with a frame of its own.
    public var storesMessages: Bool { serverConfiguration?.storesMessages ?? true }
    private(set) var state: ConnectionState = .connecting
    private var stateObservers: [UUID: AsyncStream<ConnectionState>.Continuation] = [:]
    var conversations: [String: ConversationState] = [:]
    /// Per conversation with a subscribe unanswered, the messages its snapshot may miss (kept past a close:
    /// the answer may come after it).
    var uncounted: [String: UncountedArrivals] = [:]
    var pendingSends: [String: PendingSend] = [:]
    var pendingEdits: [String: PendingEdit] = [:]
    var replies: [String: ReplyState] = [:]
    /// The timelines (a conversation's main one, or a thread) where this client last set an activity other
    /// than none.
    var activeIn: Set<Timeline> = []
    /// The reads of each open timeline, and the deliveries of each followed one, each at most one a second
    /// (``/TypewireCore/ReadReporter``), and their timers.
    var readReporters: [MarkReport: ReadReporter<ContinuousClock.Instant>] = [:]
    var readTimers: [MarkReport: Task<Void, Never>] = [:]
    /// How many handles were opened (numbers each one's view).
    var openings = 0
    /// How many times each request refused for now was refused in a row: its backoff's attempt.
    var retryAttempts: [RetriedRequest: Int] = [:]

    /// Creates a client; nothing happens until ``run()``.
    /// - Parameters:
    ///   - url: The server's socket, e.g. `ws://127.0.0.1:8080/v1/socket`.
    ///   - configuration: Backoff, text and streaming options.
    ///   - logger: Where connection events are logged (at debug level).
    ///   - token: Returns a valid token for the request: before every connection attempt, and ahead of the
    ///     current token's expiry for a fresh one that the live socket takes over (a `refresh` frame). After
    ///     the server refused a token, ``TokenRequest/isAfterRefusal`` asks for one that is not cached. One
    ///     that throws is asked again after the backoff; one that throws ``TypewireClientError/signedOut``
    ///     signs the user out.
    public init(
        url: String, configuration: Configuration = .init(), logger: Logger = Logger(label: "typewire.client"),
        token: @escaping @Sendable (TokenRequest) async throws -> String
    ) {
        self.init(url: url, configuration: configuration, logger: logger, transport: platformSocketTransport(), token: token)
    }

    /// Creates a client whose socket goes over `transport` (tests give one that injects faults).
    init(
        url: String, configuration: Configuration, logger: Logger, transport: any SocketTransport,
        token: @escaping @Sendable (TokenRequest) async throws -> String
    ) {
        self.url = url
        self.transport = transport
        self.token = token
        self.configuration = configuration
        self.formatter = TypingText(configuration: configuration.text)
        self.logger = logger
        self.machine = ClientConnectionStateMachine(
            settings: .init(
                backoff: configuration.backoff, refusalsBeforeFailing: configuration.authenticationAttempts,
                backgroundGrace: configuration.backgroundGrace, tokenTimeout: configuration.tokenTimeout,
                pathSettle: configuration.networkPathSettle),
            seed: UInt64.random(in: .min ... .max))
    }

    /// Creates a client whose token provider needs no ``TokenRequest`` (it never caches a token the
    /// server could refuse).
    public init(
        url: String, configuration: Configuration = .init(), logger: Logger = Logger(label: "typewire.client"),
        token: @escaping @Sendable () async throws -> String
    ) {
        self.init(url: url, configuration: configuration, logger: logger) { (_: TokenRequest) in try await token() }
    }

    // MARK: Connection

    /// What goes out on the socket.
    enum Outgoing: Sendable {
        /// A frame.
        case text(String)
        /// Close the socket with the reason's code, saying why.
        case close(ClientConnectionStateMachine.CloseReason)
    }

    /// The connection's state, now and as it changes.
    public func states() -> AsyncStream<ConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionState.self)
        let id = UUID()
        stateObservers[id] = continuation
        continuation.yield(state)
        continuation.onTermination = { _ in Task { await self.removeStateObserver(id) } }
        return stream
    }

    private func removeStateObserver(_ id: UUID) {
        stateObservers[id] = nil
    }

    /// Forgets the user the last `welcome` named (they signed out).
    func forgetUser() {
        currentUser = nil
    }

    func setState(_ new: ConnectionState) {
        guard new != state else { return }
        state = new
        for observer in stateObservers.values { observer.yield(new) }
    }

    /// The socket `socket` is open and said hello: frames go out through `continuation`.
    func attach(_ continuation: AsyncStream<Outgoing>.Continuation, socket: Int, token: String) {
        socketNumber = socket
        outgoing = continuation
        socketToken = token
        welcomed = false
        if let closeAsked, closeAsked.socket == socket { continuation.yield(.close(closeAsked.reason)) }
        closeAsked = nil
    }

    /// Forgets the socket; the conversations keep their last state until it expires.
    func detach() {
        outgoing?.finish()
        outgoing = nil
        refreshTask?.cancel()
        refreshTask = nil
        socketToken = nil
        offeredToken = nil
        let wasWelcomed = welcomed
        welcomed = false
        activeIn.removeAll()  // the server clears a closed socket's activity
        for id in conversations.keys {
            conversations[id]!.isSubscribed = false
            for number in conversations[id]!.views.keys {
                conversations[id]!.views[number]!.isWaitingForReplies = conversations[id]!.views[number]!.thread != nil
            }
            if wasWelcomed { for composer in conversations[id]!.composers { composer.connectionChanged(isConnected: false) } }
        }
        if wasWelcomed { readConnectionChanged(isConnected: false) }
        uncounted = [:]  // the socket's subscribes are never answered now
    }

    /// Sends a frame on the current socket if it was welcomed.
    /// - Returns: Whether the frame went out (a frame not sent now is never sent later).
    @discardableResult
    func transmit(_ frame: ClientFrame) -> Bool {
        guard welcomed, let outgoing else { return false }
        outgoing.yield(.text(Self.encode(frame)))
        return true
    }

    // MARK: Frames from the server

    func receive(_ frame: ServerFrame) {
        switch frame {
        case .welcome(let welcome):
            currentUser = welcome.user.id
            serverConfiguration = welcome.config.clampedForClients  // a 0 ms interval would be a tight loop
            serverClockOffset = Double(welcome.serverTime) / 1_000 - Date().timeIntervalSince1970
            welcomed = true
            handle { $0.welcomed(socket: socketNumber, now: $1) }
            scheduleRefresh()
            resync(user: welcome.user.id)
        case .subscribed(let subscribed):
            let id = subscribed.conversation
            let missed = subscribeAnswered(id, holding: Set(subscribed.recentMessages.map(\.id)))
            guard let user = currentUser, conversations[id] != nil else { return }
            let participants = Set(subscribed.participants.map(\.id))
            for number in conversations[id]!.views.keys {
                var roster = TypingRoster<ContinuousClock.Instant>(
                    currentUserID: user, participants: participants, thread: conversations[id]!.views[number]!.thread)
                // A large group sends no presence: a snapshot's offline marks would go stale and hide typers.
                for participant in subscribed.participants where !participant.online && subscribed.followsPresence {
                    roster.setOnline(false, user: participant.id)
                }
                roster.apply(subscribed.activity, now: .now)
                conversations[id]!.views[number]!.roster = roster
            }
            conversations[id]!.yield(subscribed.participants)
            // Who is online, as presence changes: the members online now, and those told online before who
            // are not (they left while the client was away, and their offline never reached it).
            if subscribed.followsPresence {
                for participant in subscribed.participants {
                    guard participant.online || conversations[id]!.online.contains(participant.id) else { continue }
                    conversations[id]!.yield(
                        ServerFrame.Presence(
                            conversation: id, user: participant.id, online: participant.online, lastSeenAt: participant.lastSeenAt,
                            lastSeen: participant.lastSeen))
                }
            }
            conversations[id]!.isSubscribed = true
            conversations[id]!.countsReaders = subscribed.readCounts != nil
            conversations[id]!.wasSubscribed = true
            conversations[id]!.unknownSince = nil
            retrySettled(.subscription(id))
            // The server's counts and marks already hold the recent messages (and those of the time away).
            conversations[id]!.updateReadStates(thread: nil) { state in
                state.subscribed(subscribed, currentUser: user)
                for message in missed { state.messageArrived(message, currentUser: user) }
            }
            for message in subscribed.recentMessages { conversations[id]!.deliver(message, reader: nil) }
            if let newest = subscribed.recentMessages.last(where: { $0.sender != user }) { received(newest) }
            for thread in conversations[id]!.threadsWaitingForReplies { loadReplies(in: Timeline(id, thread: thread)) }
            publish(id)
        case .refreshed:
            if let offeredToken { socketToken = offeredToken }
            offeredToken = nil
            scheduleRefresh()
        case .activity(let update):
            guard conversations[update.conversation] != nil else { return }
            conversations[update.conversation]!.updateRosters { $0.apply(update, now: .now) }
            publish(update.conversation)
        case .presence(let presence):
            guard conversations[presence.conversation] != nil else { return }
            conversations[presence.conversation]!.updateRosters { $0.setOnline(presence.online, user: presence.user) }
            conversations[presence.conversation]!.yield(presence)
            publish(presence.conversation)
        case .message(let message):
            completeEdit(message)
            received(message)
            if conversations[message.conversation]?.deliver(message, reader: currentUser) == true, message.thread == nil {
                uncounted[message.conversation]?.arrived(message)
            }
        case .ack(let ack):
            replyAcknowledged(ack.clientMessageId)
            retrySettled(.message(ack.clientMessageId))
            settleSend(ack.clientMessageId)?.continuation?.resume(returning: ack.messageId)
        case .stream(let part):
            if part.final, part.user == currentUser { replyEnded(part) }
            conversations[part.conversation]?.yield(part)
        case .cancel(let request):
            replyStopRequested(request)
        case .error(let failure):
            handle(failure)
        case .receipts(let receipts):
            guard let user = currentUser else { return }
            conversations[receipts.conversation]?.updateReadStates(thread: receipts.thread) { $0.apply(receipts, currentUser: user) }
        case .unread(let unread):
            conversations[unread.conversation]?.updateReadStates(thread: unread.thread) { $0.apply(unread) }
        }
    }

    // MARK: Token refresh

    /// Whether no fresh token waits for the server's answer (for tests).
    var socketTokenIsAccepted: Bool { offeredToken == nil && socketToken != nil }
    /// How many `refresh` frames this client has sent (for tests).
    private(set) var refreshesOffered = 0

    /// Waits until the current socket's token is due for a refresh (``TokenRefresh``), then offers a fresh
    /// one. A token whose expiry cannot be read is not refreshed: the socket reconnects when it expires.
    private func scheduleRefresh(retry: Bool = false) {
        refreshTask?.cancel()
        refreshTask = nil
        var random = SystemRandomNumberGenerator()
        guard let token = socketToken, let expiry = TokenRefresh.expiry(of: token),
            let wait = TokenRefresh.wait(
                expiry: expiry, serverNow: Date().addingTimeInterval(serverClockOffset), retry: retry, using: &random)
        else { return }
        refreshTask = Task { [weak self] in
            try? await Task.sleep(for: wait)
            guard !Task.isCancelled else { return }
            await self?.offerFreshToken()
        }
    }

    /// Asks the token provider for a fresh token and hands it to the live socket. A provider that fails is
    /// asked again later while the socket's token lasts; then the socket reconnects as after any drop.
    private func offerFreshToken() async {
        guard welcomed else { return }
        do {
            let fresh = try await token(TokenRequest(reason: .refresh))
            guard welcomed, !Task.isCancelled else { return }
            // A provider that caches its token gives the same one until close to its expiry (Firebase's
            // `getIDToken()` renews it in its last 5 minutes): nothing to hand over, asked again later.
            guard fresh != socketToken else { return scheduleRefresh(retry: true) }
            offeredToken = fresh
            refreshesOffered += 1
            transmit(.refresh(.init(token: fresh)))
        } catch {
            logger.warning("the token provider failed; asking again before the token expires", metadata: ["error": "\(error)"])
            scheduleRefresh(retry: true)
        }
    }

    /// The server refused a `refresh`: past the user's handshake budget it is offered again later; a token
    /// it cannot verify is not, and the socket reconnects (with a new token) once its token expires.
    func refreshRefused(_ failure: ServerFrame.Failure) {
        offeredToken = nil
        if failure.code == .rateLimited { return scheduleRefresh(retry: true) }
        logger.warning("the server refused a fresh token", metadata: ["code": "\(failure.code)", "message": "\(failure.message)"])
    }

    /// After a welcome: subscribes again, tells the composers, and sends again what was not acknowledged.
    private func resync(user: String) {
        for (id, conversation) in conversations {
            subscribe(to: id)
            for composer in conversation.composers { composer.connectionChanged(isConnected: true) }
        }
        readConnectionChanged(isConnected: true)
        restoreUnsentMessages()
        for (clientMessageId, send) in pendingSends {
            // Queued for another user (before a sign-out that did not reach the client, or by a token
            // provider that changed users): never sent as this one.
            if let sender = send.user, sender != user {
                settleSend(clientMessageId)?.continuation?.resume(throwing: TypewireClientError.signedOut)
            } else {
                pendingSends[clientMessageId]!.user = user
                resendMessage(clientMessageId)
            }
        }
        for messageId in pendingEdits.keys { resendEdit(messageId) }
        for messageId in replies.keys { refreshReplyActivity(messageId) }
    }

    /// Sends a conversation's `subscribe`, noting the arrivals its snapshot may miss (``UncountedArrivals``).
    func subscribe(to conversation: String) {
        guard transmit(Self.subscription(to: conversation)) else { return }
        uncounted[conversation, default: UncountedArrivals()].subscribeSent()
    }

    /// The oldest unanswered subscribe of a conversation was answered (with a snapshot holding `recent`, or
    /// refused): the messages that arrived since it went out and its snapshot did not count.
    func subscribeAnswered(_ conversation: String, holding recent: Set<String>) -> [ChatMessage] {
        guard var arrivals = uncounted.removeValue(forKey: conversation) else { return [] }
        let missed = arrivals.answered(holding: recent)
        if !arrivals.isEmpty { uncounted[conversation] = arrivals }
        return missed
    }

    /// The `subscribe` frame of a conversation: with its read state (a server that keeps no messages
    /// sends none).
    static func subscription(to conversation: String) -> ClientFrame {
        .subscribe(.init(conversation: conversation, readState: true))
    }

    static func encode(_ frame: ClientFrame) -> String {
        String(decoding: FrameCodec.encode(frame), as: UTF8.self)
    }
}
