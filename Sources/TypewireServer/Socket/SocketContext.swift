import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import TypewireCore

/// What every socket of a server shares (one instance, referenced by each socket's handler): the hub, the
/// token authority, the limits, and the work a socket hands to the hub (``Work``), run in order on the
/// socket's ``SocketLane``.
final class SocketContext: Sendable {
    let hub: Hub
    let authority: TokenAuthority
    let configuration: ServerConfiguration
    /// What every socket's state machine reads of the configuration.
    let rules: SocketRules
    let logger: Logger
    let writers: LoopWriters
    /// Each loop's sockets' timers.
    let timers: TimerQueues
    /// Counts the sockets refused per client address.
    let refusals: AddressRefusals
    /// Counts the sockets of each client address waiting for their `welcome`.
    let pendingHandshakes: PendingHandshakes

    init(
        hub: Hub, authority: TokenAuthority, configuration: ServerConfiguration, logger: Logger, writers: LoopWriters,
        timers: TimerQueues, refusals: AddressRefusals, pendingHandshakes: PendingHandshakes
    ) {
        self.hub = hub
        self.authority = authority
        self.configuration = configuration
        self.rules = SocketRules(configuration)
        self.logger = logger
        self.writers = writers
        self.timers = timers
        self.refusals = refusals
        self.pendingHandshakes = pendingHandshakes
    }

    /// Work for the hub, in the order the socket's frames came.
    enum Work: Equatable, Sendable {
        /// Check the token, register the socket with the hub (which answers `welcome`); `unchecked` is what
        /// the token claims, read already (nil if it is not a JWT).
        case hello(token: String, unchecked: UncheckedToken?)
        /// A frame within its budgets.
        case frame(ClientFrame)
        /// Verify a fresh token for the socket's user and move its expiry (`refresh`).
        case refresh(token: String)
        /// Answer the socket after the answers to its earlier frames.
        case answer(ServerFrame.Failure)
        /// Close the socket for flooding (it is read no more already), after the answers to its earlier frames.
        case closeForFlooding(reason: String)
        /// The socket closed; `wentAway` if its peer's close frame said 1001 (going away).
        case disconnect(wentAway: Bool)
    }

    /// What the hub knows the socket as, once `hello` went through; the lane's (a mutex only hands it over
    /// between the lane's tasks).
    final class Registration: Sendable {
        private let registered = NIOLockedValueBox<(connection: ConnectionID, user: String)?>(nil)

        /// The hub's id of the socket.
        var connection: ConnectionID? { registered.withLockedValue { $0?.connection } }
        /// The user the socket said hello as.
        var user: String? { registered.withLockedValue { $0?.user } }

        func register(_ connection: ConnectionID, user: String) {
            registered.withLockedValue { $0 = (connection, user) }
        }

        /// Forgets the registration.
        /// - Returns: The hub's id of the socket, if it was registered.
        func clear() -> ConnectionID? {
            registered.withLockedValue { registered in
                defer { registered = nil }
                return registered?.connection
            }
        }
    }

    /// What running one item of work asks of the socket.
    enum Outcome: Sendable {
        /// Nothing.
        case done
        /// The hub took the socket; its token expires then.
        case opened(tokenExpiresAt: Date)
        /// A fresh token was accepted: the socket now lives until it expires.
        case refreshed(tokenExpiresAt: Date)
        /// The hello failed: close the socket with this code and reason.
        case refused(WebSocketErrorCode, String, blame: Blame)
        /// The lane reached ``Work/closeForFlooding(reason:)``: close the socket at once.
        case flooded(reason: String)
    }

    /// Who a refused `hello` is the fault of.
    enum Blame: Equatable, Sendable {
        /// The client (its token, its sockets, its rate): it counts against the client's address.
        case client
        /// The server (its storage, its shutdown): it does not.
        case server
    }

    /// Runs one item of a socket's work, on the hub's shard of the socket's event loop (the socket's
    /// ``SocketLane`` runs it there): a frame for a conversation of that shard is handled without a hop.
    /// - Parameter readAt: When the socket read the frame of the work, with ``StageTimings`` only.
    /// - Returns: What the socket is to do next.
    func perform(
        _ work: Work, readAt: NIODeadline? = nil, on shard: isolated HubShard, sink: ChannelSink, registration: Registration
    ) async -> Outcome {
        switch work {
        case .hello(let token, let unchecked):
            return await hub.handshakeGate.run {
                await hello(token, unchecked: unchecked, on: shard, sink: sink, registration: registration)
            }
        case .frame(let frame):
            // A `subscribed` waits while the peer has not read what it was sent (a socket that reads nothing
            // asking for 100 `subscribed` of 64 KiB in one read gets a few made, not 100), and is not made for a
            // socket cut off or closing. Every other frame read before a close still counts (a send, then a
            // close: the message is stored).
            if case .subscribe = frame {
                await sink.untilWritable()
                guard !sink.hasEnded else { return .done }
            }
            guard let id = registration.connection else { return .done }
            await hub.handle(frame, from: id, readAt: readAt)
        case .refresh(let token):
            hub.metrics.received("refresh")
            guard let user = registration.user else { return .done }
            return await refresh(token, of: user, sink: sink)
        case .answer(let failure):
            sink.enqueue(Hub.encode(.error(failure)))
            hub.metrics.sent("error")
        case .closeForFlooding(let reason):
            return .flooded(reason: reason)
        case .disconnect(let wentAway):
            guard let id = registration.clear() else { return .done }
            await hub.disconnect(id, wentAway: wentAway)
        }
        return .done
    }

    /// Runs an item of a socket's work at once on the hub's shard of the socket's loop, when it asks nothing
    /// of the socket and waits for nothing (an `activity` frame where the user is known to be a participant).
    /// - Returns: false, having done nothing, when it must go through ``perform(_:readAt:on:sink:registration:)``.
    func performAtOnce(_ work: Work, readAt: NIODeadline? = nil, on shard: isolated HubShard, registration: Registration) -> Bool {
        guard case .frame(let frame) = work, let id = registration.connection else { return false }
        return hub.handleAtOnce(frame, from: id, readAt: readAt, on: shard)
    }

    /// A `hello`: the token checked, the socket registered with the hub (which answers `welcome`).
    private func hello(
        _ token: String, unchecked: UncheckedToken?, on shard: isolated HubShard, sink: ChannelSink, registration: Registration
    ) async -> Outcome {
        let stages = hub.metrics.stages
        let started = stages == nil ? nil : NIODeadline.now()
        guard let unchecked, let (identity, expiresAt) = await authority.verifyWithExpiry(token, unchecked: unchecked) else {
            sink.enqueue(Self.helloFailure(.unauthorized, "The token is invalid or expired."))
            return .refused(.policyViolation, "invalid token", blame: .client)
        }
        let verified = stages == nil ? nil : NIODeadline.now()
        if let stages, let started { stages.record(stages.helloVerify, since: started) }
        do {
            registration.register(try await hub.connect(identity, sink: sink), user: identity.userID)
            if let stages, let verified { stages.record(stages.helloConnect, since: verified) }
            return .opened(tokenExpiresAt: expiresAt)
        } catch {
            sink.enqueue(Self.helloFailure(error.code, error.message))
            // 1013 (try again later) for the server's own trouble: the client reconnects with backoff.
            return .refused(
                error.isTemporary ? .unknown(1013) : .policyViolation, error.message, blame: error.isServersFault ? .server : .client)
        }
    }

    /// Verifies a fresh token for the socket's user, as a `hello`'s token is (the socket answers `refreshed`
    /// once its expiry moved, ``SocketStateMachine/refreshed(tokenExpiresAt:)``). A
    /// refresh costs a handshake of the user's budget (``ServerConfiguration/Budgets/handshakes``); past it
    /// it is refused with `rate_limited` and the socket kept. A token that cannot be verified is answered
    /// with `unauthorized` and the socket lives on until its current token expires; a token for another
    /// user closes the socket (1008).
    private func refresh(_ token: String, of user: String, sink: ChannelSink) async -> Outcome {
        guard hub.handshakes.allow(user, now: hub.now()) else {
            let rate = configuration.budgets.handshakes.rate
            sink.enqueue(Self.refreshFailure(.rateLimited, ConnectRefusal.tooManyHandshakes(rate: rate).message))
            return .done
        }
        guard let unchecked = UncheckedToken(of: token),
            let (identity, expiresAt) = await authority.verifyWithExpiry(token, unchecked: unchecked)
        else {
            sink.enqueue(Self.refreshFailure(.unauthorized, "The token is invalid or expired; the socket keeps its current token."))
            return .done
        }
        guard identity.userID == user else {
            sink.enqueue(Self.refreshFailure(.unauthorized, "The token names another user; a socket keeps the user it said hello as."))
            return .refused(.policyViolation, "a token for another user", blame: .client)
        }
        return .refreshed(tokenExpiresAt: expiresAt)
    }

    /// An error answering `refresh`.
    private static func refreshFailure(_ code: ErrorCode, _ message: String) -> OutboundFrame {
        Hub.encode(.error(.init(code: code, message: message, ref: "refresh", request: .refresh)))
    }

    /// The refusal of a `hello` whose token names a user past their handshake budget
    /// (``ServerConfiguration/Budgets/handshakes``), decided on the socket's event loop before the token costs a
    /// verification, a task and the hub's turn. The claim is not trusted: it can get a `hello` refused early
    /// (what the hub would do for a valid token), never charge the user's budget.
    func spentHandshake(_ unchecked: UncheckedToken?) -> ConnectRefusal? {
        guard let user = unchecked?.subject, hub.handshakes.isSpent(user, now: hub.now()) else { return nil }
        return .tooManyHandshakes(rate: configuration.budgets.handshakes.rate)
    }

    /// An error about the handshake (`ref` and `request` are "hello").
    static func helloFailure(_ code: ErrorCode, _ message: String) -> OutboundFrame {
        Hub.encode(.error(.init(code: code, message: message, ref: "hello", request: .hello)))
    }
}
