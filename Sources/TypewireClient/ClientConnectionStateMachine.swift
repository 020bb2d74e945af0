import TypewireCore

/// The client's connection as a value, the shape of the server's `SocketStateMachine`: what the app asks
/// (run, pause, the background, sign-out), the device's network path, the token provider's answers and the
/// socket's events go in with `now`; the actions the client runs come out, and ``deadline`` says when to
/// call ``timePassed(now:)`` next. It reads no clock and starts no task, so each decision is tested as a
/// value (`ClientConnectionStateMachineTests`).
///
/// What it decides:
/// - **Tokens fail softly.** A provider that throws or does not answer within ``Settings/tokenTimeout``
///   (offline, `getIDToken()` needs the network) is asked again after the backoff, for ever; only the
///   server's refusals count, and ``Settings/refusalsBeforeFailing`` in a row stop the client
///   (``ConnectionState/failed(_:)``). After a refusal the next request says so (``TokenRequest/Reason/refused``).
/// - **No dialling while offline.** While the path is unsatisfied nothing is asked or dialled; when it is
///   satisfied again the client connects at once. A change of interface or gateway drops the socket (it may
///   be dead without a word) once the path has been still for ``Settings/pathSettle``.
/// - **The background's grace is a deadline**, held under the system's background time: past it, or when
///   the system takes the time back, the socket closes. The foreground connects again at once.
/// - **At most one socket**: a new one is dialled only once the last one's close has been seen.
struct ClientConnectionStateMachine {
    typealias Instant = ContinuousClock.Instant

    /// The machine's settings, from the client's configuration.
    struct Settings: Sendable {
        /// The waits between attempts.
        var backoff = Backoff()
        /// The server's refusals of the token in a row after which the client stops.
        var refusalsBeforeFailing = 3
        /// How long the socket stays open once the app is in the background.
        var backgroundGrace: Duration = .seconds(10)
        /// How long the token provider may take before its answer is given up (and asked again later).
        var tokenTimeout: Duration = .seconds(30)
        /// How long a network path must stay unchanged before the socket is dropped for it
        /// (``TypewireClient/Configuration/networkPathSettle``).
        var pathSettle: Duration = .seconds(1)
    }

    /// What the app wants.
    enum Wish: Equatable {
        /// A connection: the app runs in the foreground.
        case connected
        /// The app is in the background: the socket (if open) stays until this time.
        case background(until: Instant)
        /// No connection: ``disconnect(now:)``, or the background's grace ran out.
        case paused
        /// No connection, and no user: ``signOut(now:)``.
        case signedOut
    }

    /// Where the socket stands.
    enum Link: Equatable {
        /// Nothing under way.
        case idle
        /// The token provider was asked (request `id`, at `since`).
        case fetchingToken(id: Int, since: Instant)
        /// The socket was dialled with a token, and has no `welcome` yet.
        case opening(socket: Int)
        /// The socket was welcomed.
        case welcomed(socket: Int)
        /// The socket was asked to close; the next one waits for its end.
        case closing(socket: Int)
        /// Waiting out the backoff before the next attempt.
        case waiting(until: Instant)
    }

    /// Why the client closes its socket.
    enum CloseReason: Equatable, Sendable {
        /// The app asked (``TypewireClient/disconnect()``).
        case app
        /// The background's grace ran out, or the system took the background time back.
        case background
        /// The network path changed: the socket may be dead.
        case networkChanged
        /// The user signed out.
        case signedOut
        /// ``TypewireClient/run()`` ended.
        case stopped
    }

    /// What the client does.
    enum Action: Equatable {
        /// Ask the token provider; its answer comes back with `id`.
        case requestToken(id: Int, TokenRequest)
        /// Dial the server and say hello with `token`; the socket's events come back with `socket`.
        case open(socket: Int, token: String)
        /// Close the socket.
        case close(socket: Int, reason: CloseReason)
        /// Stop the user's typing everywhere (the app left the foreground).
        case stopTyping
        /// Ask the system for time to run in the background (iOS suspends an app a few seconds after it
        /// leaves the foreground otherwise).
        case beginBackgroundTime
        /// Give the background time back.
        case endBackgroundTime
        /// Forget the user: fail the sends waiting, end every handle, clear the outbox.
        case endSession
    }

    let settings: Settings
    /// Whether ``TypewireClient/run()`` runs.
    private(set) var running = false
    private(set) var wish = Wish.connected
    private(set) var link = Link.idle
    /// Whether the device can reach the network (assumed until a path says otherwise).
    private(set) var pathSatisfied = true
    private var lastPath: NetworkPath?
    /// When to drop the socket for a path change, once the path has settled.
    private var redialAt: Instant?
    /// Failed attempts in a row (the backoff's attempt).
    private var attempt = 0
    /// The server's refusals of the token in a row, and the last one.
    private var refusals = 0
    private var refusal: TypewireClientError?
    /// Why the client stopped trying: the server refused its token too often.
    private(set) var failure: TypewireClientError?
    /// Why the next token is asked for.
    private var nextReason = TokenRequest.Reason.connect
    /// Whether the system's background time is held.
    private(set) var holdsBackgroundTime = false
    private var tokenRequests = 0
    private var sockets = 0
    private var random: SplitMix64

    /// A machine; `seed` drives the backoff's jitter.
    init(settings: Settings, seed: UInt64) {
        self.settings = settings
        self.random = SplitMix64(seed: seed)
    }

    // MARK: What the app sees

    /// The connection's state at `now`, as the app sees it.
    func state(now: Instant) -> ConnectionState {
        guard running else { return .stopped }
        if wish == .signedOut { return .signedOut }
        if let failure { return .failed(failure) }
        if case .closing = link { return .connected }  // still open until its close is seen
        if wish == .paused { return .paused }
        switch link {
        case .welcomed: return .connected
        case .opening, .fetchingToken, .closing: return .connecting
        case .waiting(let until): return .waitingToReconnect(retryIn: max(.zero, now.duration(to: until)))
        case .idle: return pathSatisfied ? .paused : .offline
        }
    }

    /// When ``timePassed(now:)`` is due next; nil: not until another event.
    var deadline: Instant? {
        var times: [Instant] = []
        if case .fetchingToken(_, let since) = link { times.append(since + settings.tokenTimeout) }
        if case .waiting(let until) = link { times.append(until) }
        if case .background(let until) = wish { times.append(until) }
        if let redialAt { times.append(redialAt) }
        return times.min()
    }

    /// The socket the server's frames count for: the one opened last, if not yet closed.
    var currentSocket: Int? {
        switch link {
        case .opening(let socket), .welcomed(let socket), .closing(let socket): socket
        default: nil
        }
    }

    // MARK: Events

    /// ``TypewireClient/run()`` started.
    mutating func start(now: Instant) -> [Action] {
        running = true
        return connectIfWanted(now: now)
    }

    /// ``TypewireClient/run()`` ends.
    mutating func stop() -> [Action] {
        running = false
        return leave(.stopped)
    }

    /// The token provider answered request `id`.
    mutating func tokenArrived(_ token: String, id: Int, now: Instant) -> [Action] {
        guard case .fetchingToken(id, _) = link else { return [] }
        sockets += 1
        link = .opening(socket: sockets)
        return [.open(socket: sockets, token: token)]
    }

    /// The token provider threw for request `id`: asked again after the backoff, unless it says the user
    /// signed out (``TypewireClientError/signedOut``).
    mutating func tokenFailed(_ error: TypewireClientError, id: Int, now: Instant) -> [Action] {
        guard case .fetchingToken(id, _) = link else { return [] }
        if error.reason == .signedOut { return signOut(now: now) }
        link = .idle
        attempt += 1
        return waitToRetry(now: now)
    }

    /// The server welcomed `socket`.
    mutating func welcomed(socket: Int, now: Instant) -> [Action] {
        guard link == .opening(socket: socket) else { return [] }
        link = .welcomed(socket: socket)
        attempt = 0
        refusals = 0
        refusal = nil
        nextReason = .connect
        return []
    }

    /// The server refused `socket`'s token (`unauthorized`, before it closes the socket).
    mutating func refused(socket: Int, _ error: TypewireClientError) {
        guard currentSocket == socket else { return }
        refusals += 1
        refusal = error
        nextReason = .refused
    }

    /// `socket` closed, whoever closed it.
    mutating func socketClosed(socket: Int, now: Instant) -> [Action] {
        guard currentSocket == socket else { return [] }
        let wasWelcomed = link == .welcomed(socket: socket)
        let ours = link == .closing(socket: socket)
        link = .idle
        var actions: [Action] = []
        if case .background = wish, holdsBackgroundTime {
            holdsBackgroundTime = false
            actions.append(.endBackgroundTime)
        }
        if refusals >= settings.refusalsBeforeFailing, let refusal {
            failure = refusal
            return actions
        }
        guard wish == .connected else { return actions }
        if ours { return actions + connectIfWanted(now: now) }  // closed for a path change, or reconnected at the app's word
        if wasWelcomed { attempt = 0 }
        attempt += 1
        return actions + waitToRetry(now: now)
    }

    /// Time passed: the token provider's time is up, the backoff is over, the background's grace ran out,
    /// or the path has settled.
    mutating func timePassed(now: Instant) -> [Action] {
        var actions: [Action] = []
        if case .fetchingToken(_, let since) = link, now >= since + settings.tokenTimeout {
            link = .idle  // its late answer is ignored
            attempt += 1
            actions += waitToRetry(now: now)
        }
        if case .waiting(let until) = link, now >= until {
            link = .idle
            actions += connectIfWanted(now: now)
        }
        if case .background(let until) = wish, now >= until { actions += backgroundEnded() }
        if let redialAt, now >= redialAt {
            self.redialAt = nil
            actions += redial(now: now)
        }
        return actions
    }

    /// The device's network path was updated.
    mutating func pathUpdated(_ path: NetworkPath, now: Instant) -> [Action] {
        let last = lastPath
        lastPath = path
        pathSatisfied = path.isSatisfied
        guard path.isSatisfied else {
            redialAt = nil
            if case .waiting = link { link = .idle }  // nothing to dial over: wait for a path
            return []
        }
        guard let last else { return connectIfWanted(now: now) }
        if !last.isSatisfied {
            // Back after none: connect at once; a socket that lived through it may be dead, so it goes too.
            if currentSocket == nil { return connectIfWanted(now: now) }
        } else if last.interfaces.first == path.interfaces.first, last.gateways == path.gateways {
            return []
        }
        redialAt = now + settings.pathSettle
        return []
    }

    /// The app says the network changed (it knows, or debounced it itself): the socket is dropped and
    /// the next dialled at once.
    mutating func networkChanged(now: Instant) -> [Action] {
        guard wish == .connected else { return [] }
        redialAt = nil
        return redial(now: now)
    }

    /// The app went to the background.
    mutating func enterBackground(now: Instant) -> [Action] {
        guard wish == .connected else { return [] }
        var actions: [Action] = [.stopTyping]
        guard settings.backgroundGrace > .zero else { return actions + backgroundEnded() }
        wish = .background(until: now + settings.backgroundGrace)
        switch link {
        case .opening, .welcomed:
            holdsBackgroundTime = true
            actions.append(.beginBackgroundTime)
        case .fetchingToken, .waiting: link = .idle  // no new socket in the background
        case .idle, .closing: break
        }
        return actions
    }

    /// The system takes the background time back (its expiration handler): the socket closes now.
    mutating func backgroundTimeExpiring(now: Instant) -> [Action] {
        guard case .background = wish else { return [] }
        return backgroundEnded()
    }

    /// The app came to the foreground: it connects at once, whatever stopped it before (the background,
    /// ``disconnect(now:)``, refusals); a socket still open is kept.
    mutating func enterForeground(now: Instant) -> [Action] {
        var actions: [Action] = []
        if holdsBackgroundTime {
            holdsBackgroundTime = false
            actions.append(.endBackgroundTime)
        }
        return actions + reconnectNow(now: now)
    }

    /// The app asked for no connection.
    mutating func disconnect(now: Instant) -> [Action] {
        guard wish != .signedOut else { return [] }
        wish = .paused
        return leave(.app)
    }

    /// The app asked for a connection now: after ``disconnect(now:)``, a failure, a sign-out (another user
    /// signed in), or instead of waiting out the backoff.
    mutating func reconnectNow(now: Instant) -> [Action] {
        wish = .connected
        failure = nil
        refusals = 0
        if case .waiting = link { link = .idle }
        return connectIfWanted(now: now)
    }

    /// The user signed out: the socket closes, and the session ends (``Action/endSession``).
    mutating func signOut(now: Instant) -> [Action] {
        wish = .signedOut
        failure = nil
        refusals = 0
        refusal = nil
        nextReason = .connect
        redialAt = nil
        return leave(.signedOut) + [.endSession]
    }

    // MARK: Steps

    private mutating func connectIfWanted(now: Instant) -> [Action] {
        guard running, wish == .connected, failure == nil, pathSatisfied, link == .idle else { return [] }
        tokenRequests += 1
        link = .fetchingToken(id: tokenRequests, since: now)
        return [.requestToken(id: tokenRequests, TokenRequest(reason: nextReason))]
    }

    private mutating func waitToRetry(now: Instant) -> [Action] {
        guard running, wish == .connected, pathSatisfied else { return [] }
        link = .waiting(until: now + settings.backoff.delay(attempt: attempt, using: &random))
        return []
    }

    /// Drops the socket for a path change (the next is dialled once its close is seen), or dials at once.
    private mutating func redial(now: Instant) -> [Action] {
        switch link {
        case .opening(let socket), .welcomed(let socket):
            link = .closing(socket: socket)
            attempt = 0
            return [.close(socket: socket, reason: .networkChanged)]
        case .waiting:
            link = .idle
            return connectIfWanted(now: now)
        case .idle: return connectIfWanted(now: now)
        case .fetchingToken, .closing: return []
        }
    }

    private mutating func backgroundEnded() -> [Action] {
        wish = .paused
        return leave(.background)
    }

    /// Closes the socket, if one is open, and stops whatever was under way.
    private mutating func leave(_ reason: CloseReason) -> [Action] {
        var actions: [Action] = []
        switch link {
        case .opening(let socket), .welcomed(let socket):
            link = .closing(socket: socket)
            actions.append(.close(socket: socket, reason: reason))
        case .fetchingToken, .waiting: link = .idle
        case .idle, .closing: break
        }
        if holdsBackgroundTime {
            holdsBackgroundTime = false
            actions.append(.endBackgroundTime)
        }
        return actions
    }
}
