import Foundation
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import TypewireCore

/// What every socket of a server shares (one instance, referenced by each socket's handler): the hub, the
/// token authority, the limits, and the work a socket hands to the hub (``Work``), run in order on the
/// socket's ``SocketLane``.
final class SocketSession: Sendable {
    /// The largest frame accepted before a valid `hello` (a hello with a long token fits): a larger one
    /// closes the socket (1009) at once.
    static let helloFrameLimit = 8 * 1_024

    /// Frames that are not a valid `hello` answered before the socket is closed (1008).
    static let framesBeforeHello = 5

    /// Frames a socket may send behind its `hello` before `welcome` (they wait undecoded while the hello is
    /// checked): past it the socket is closed (1008). Clients send nothing before `welcome`.
    static let framesBehindHello = 256

    let hub: Hub
    let authority: TokenAuthority
    let configuration: ServerConfiguration
    let logger: Logger
    let writers: LoopWriters
    /// Counts the sockets refused per client address.
    let refusals: AddressRefusals

    init(
        hub: Hub, authority: TokenAuthority, configuration: ServerConfiguration, logger: Logger, writers: LoopWriters,
        refusals: AddressRefusals
    ) {
        self.hub = hub
        self.authority = authority
        self.configuration = configuration
        self.logger = logger
        self.writers = writers
        self.refusals = refusals
    }

    /// Work for the hub, in the order the socket's frames came.
    enum Work: Sendable {
        /// Check the token, register the socket with the hub (which answers `welcome`); `unchecked` is what
        /// the token claims, read already (nil if it is not a JWT).
        case hello(token: String, unchecked: UncheckedToken?)
        /// A frame within its budgets.
        case frame(ClientFrame)
        /// Answer the socket after the answers to its earlier frames.
        case answer(ServerFrame.Failure)
        /// Close the socket for flooding (it is read no more already), after the answers to its earlier frames.
        case closeForFlooding(reason: String)
        /// The socket closed.
        case disconnect
    }

    /// What the hub knows the socket as, once `hello` went through; the lane's (a mutex only hands it over
    /// between the lane's tasks).
    final class Registration: Sendable {
        private let id = Mutex<ConnectionID?>(nil)
        var connection: ConnectionID? {
            get { id.withLock { $0 } }
            set { id.withLock { $0 = newValue } }
        }
    }

    /// Runs one item of a socket's work, on the hub's shard of the socket's event loop (the socket's
    /// ``SocketLane`` runs it there): a frame for a conversation of that shard is handled without a hop.
    /// - Parameters:
    ///   - shard: The shard the work runs on.
    ///   - opened: Called once the hub took the socket, with when its token expires.
    ///   - refused: Called when the hello failed: the socket is to be closed with this code and reason; the
    ///     flag says whether the server was at fault (its storage, its shutdown) rather than the client.
    ///   - flooded: Called for ``Work/closeForFlooding(reason:)``: the socket is to be closed at once.
    func perform(
        _ work: Work, on shard: isolated HubShard, outbox: ChannelOutbox, registration: Registration,
        opened: @escaping @Sendable (Date) -> Void, refused: @escaping @Sendable (WebSocketErrorCode, String, Bool) -> Void,
        flooded: @escaping @Sendable (String) -> Void
    ) async {
        switch work {
        case .hello(let token, let unchecked):
            guard let unchecked, let (identity, expiresAt) = await authority.verifyWithExpiry(token, unchecked: unchecked) else {
                outbox.enqueue(Self.helloFailure(.unauthorized, "The token is invalid or expired."))
                return refused(.policyViolation, "invalid token", false)
            }
            do {
                registration.connection = try await hub.connect(identity, outbox: outbox)
                opened(expiresAt)
            } catch {
                outbox.enqueue(Self.helloFailure(error.code, error.message))
                // 1013 (try again later) for the server's own trouble: the client reconnects with backoff.
                refused(error.isTemporary ? .unknown(1013) : .policyViolation, error.message, error.isServersFault)
            }
        case .frame(let frame):
            guard let id = registration.connection else { return }
            await hub.handle(frame, from: id)
        case .answer(let failure):
            outbox.enqueue(Hub.encode(.error(failure)))
            hub.metrics.sent("error")
        case .closeForFlooding(let reason):
            flooded(reason)
        case .disconnect:
            guard let id = registration.connection else { return }
            registration.connection = nil
            await hub.disconnect(id)
        }
    }

    /// What to do with one message of a socket that said hello.
    enum Admission {
        /// Hand this work to the hub, in order.
        case work(Work)
        /// Nothing (dropped within budget).
        case none
        /// Close the socket with the policy-violation code: it keeps flooding.
        case close(reason: String)
    }

    /// Decides about one message of a socket that said hello: frames within their budgets
    /// (``InboundGate``) go to the hub; the rest is answered or dropped here, before the hub.
    func admit(_ message: MessageAssembler.Message, gate: inout InboundGate) -> Admission {
        let refusal: Refusal
        switch Self.decode(message, maxFrameSize: configuration.sockets.maxFrameSize) {
        case .success(let frame):
            let decision = gate.admit(frame, now: hub.now())
            guard decision != .pass else { return .work(.frame(frame)) }
            hub.metrics.received(frame.type)
            hub.metrics.droppedByRateLimit.increment()
            switch decision {
            case .pass: return .work(.frame(frame))
            case .refuse(let failure): return .work(.answer(failure))
            case .drop(let notify): return notify ? .work(.answer(dropNotice(frame))) : .none
            case .close(let reason): return .close(reason: reason)
            }
        case .failure(let failure):
            refusal = failure
        }
        hub.metrics.received(refusal.frameType ?? "invalid")
        switch gate.admitBadFrame(now: hub.now()) {
        case .pass: return .work(.answer(refusal.answer))
        case .drop, .refuse:
            hub.metrics.droppedByRateLimit.increment()
            return .none
        case .close(let reason): return .close(reason: reason)
        }
    }

    /// The refusal of a `hello` whose token names a user past their handshake budget
    /// (``ServerConfiguration/Budgets/handshakes``), decided on the socket's event loop before the token costs a
    /// verification, a task and the hub's turn. The claim is not trusted: it can get a `hello` refused early
    /// (what the hub would do for a valid token), never charge the user's budget.
    func spentHandshake(_ unchecked: UncheckedToken?) -> ConnectRefusal? {
        guard let user = unchecked?.subject, hub.handshakes.isSpent(user, now: hub.now()) else { return nil }
        return .tooManyHandshakes(rate: configuration.budgets.handshakes.rate)
    }

    /// The `hello` a message before it carries, if it is one.
    static func hello(in message: MessageAssembler.Message) -> ClientFrame.Hello? {
        guard case .text(let text) = message, case .hello(let hello)? = try? FrameCodec.decodeClientFrame(Data(text.utf8)) else { return nil }
        return hello
    }

    /// A frame that cannot be handled, and the error that answers it.
    private struct Refusal: Error {
        var answer: ServerFrame.Failure
        var frameType: String?
    }

    /// Decodes one message; frames over the configured size, binary frames and text that is not UTF-8 are refused.
    private static func decode(_ message: MessageAssembler.Message, maxFrameSize: Int) -> Result<ClientFrame, Refusal> {
        guard case .text(let text) = message else {  // binary, or text that is not UTF-8
            let error = FrameDecodingError.notJSON
            return .failure(Refusal(answer: .init(code: error.code, message: error.description), frameType: nil))
        }
        guard text.utf8.count <= maxFrameSize else {
            let message = "The frame has \(text.utf8.count) bytes; the limit is \(maxFrameSize)."
            return .failure(Refusal(answer: .init(code: .tooLarge, message: message), frameType: nil))
        }
        do throws(FrameDecodingError) {
            return .success(try FrameCodec.decodeClientFrame(Data(text.utf8)))
        } catch {
            let ref = error.frameType.map { String($0.prefix(64)) }
            return .failure(Refusal(
                answer: .init(code: error.code, message: error.description, ref: ref, request: ref), frameType: error.frameType
            ))
        }
    }

    /// Tells the client that frames are dropped (at most once a second): activity past its own budget, or
    /// any frame past the socket's frame budget.
    private func dropNotice(_ frame: ClientFrame) -> ServerFrame.Failure {
        if case .activity(let request) = frame, request.activity.isActive {
            return .init(
                code: .rateLimited,
                message: "More than \(Int(configuration.budgets.activity.rate)) activity frames a second, or \(Int(configuration.budgets.frames.rate)) frames in all: the excess is dropped. A composer needs one every \(configuration.typing.refreshInterval) ms.",
                ref: "activity", request: "activity"
            )
        }
        return .init(
            code: .rateLimited,
            message: "More than \(Int(configuration.budgets.frames.rate)) frames a second: the excess is dropped, this '\(frame.type)' among them.",
            ref: frame.type, request: frame.type
        )
    }

    /// An error about the handshake (`ref` and `request` are "hello").
    static func helloFailure(_ code: ErrorCode, _ message: String) -> OutboundFrame {
        Hub.encode(.error(.init(code: code, message: message, ref: "hello", request: "hello")))
    }
}
