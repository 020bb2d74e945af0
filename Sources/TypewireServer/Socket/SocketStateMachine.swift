import Foundation
import NIOCore
import NIOWebSocket
import TypewireCore

/// The decisions of one socket, from its first frame to its close, as a value: events in, actions out.
///
/// The first frame must be a valid `hello` within the configured time, or the socket is closed with the
/// policy-violation code (1008). While the hello is checked the socket is not read, and frames already read
/// behind it wait undecoded: a socket whose hello is refused costs no decoding of what it sent after it.
/// After `welcome`, frames within their budgets (``InboundGate``) go to the hub in order; frames that cannot
/// be decoded are answered with an `error` frame and the socket stays usable. Whether the socket is read is
/// decided in one place (``readingAction()``): not while its hello is checked, its work for the hub piles up,
/// or its peer leaves what it is sent unread; never again once it flooded.
///
/// ``SocketHandler`` feeds it what happens on the channel, the timers and the hub's answers, and runs the
/// actions in one place; the machine touches no channel, timer or hub (as postgres-nio's
/// `ConnectionStateMachine`).
struct SocketStateMachine {
    /// Where the socket is in its life.
    enum Phase: Equatable {
        /// No valid `hello` yet; `refused` frames were answered.
        case awaitingHello(refused: Int)
        /// The hello is being checked: the socket is not read, and frames read with the hello wait undecoded.
        case authenticating(held: [MessageAssembler.Message])
        /// Registered with the hub.
        case open
        /// Closing or closed: frames are dropped.
        case closing
    }

    private(set) var phase = Phase.awaitingHello(refused: 0)
    private let rules: SocketRules
    private var assembler = MessageAssembler(maxSize: SocketRules.helloFrameLimit)
    private var gate: InboundGate
    private var awaitingPong = false
    /// Whether the socket counts as refused for its client's address when it closes: until it is welcomed
    /// (unless the server was at fault), and once it is closed for flooding.
    private(set) var countsAsRefused = true
    /// Whether the peer's close frame said it goes away (1001).
    private var peerWentAway = false
    /// Its work for the hub piles up (``SocketLane``): it is not read until the lane catches up.
    private var laneIsFull = false
    /// NIO holds more of its frames than the high water mark: the peer does not read what it is sent, so
    /// what it sends is not read either, and it cannot make the server work for answers it will not take.
    /// Cut off when its frames pass their bound (``SentBytes``), or by the ping timeout.
    private var outputIsBlocked = false
    /// Closed for flooding: read no more.
    private var stoppedForFlooding = false
    /// Whether the channel reads now, as the last ``Action/setReading(_:)`` said.
    private(set) var reading = true

    init(rules: SocketRules) {
        self.rules = rules
        self.gate = InboundGate(rules.budgets)
    }

    var isClosing: Bool { phase == .closing }

    // MARK: Frames

    /// A text, binary or continuation frame (unmasked).
    mutating func dataReceived(_ opcode: WebSocketOpcode, fin: Bool, data: ByteBuffer, now: Int64) -> [Action] {
        guard !isClosing else { return [] }
        var actions: [Action] = []
        if !fin {
            actions = chargeControl(now: now)  // a fragment cannot be dropped: a flood of them closes
            guard !isClosing else { return actions }
        }
        let outcome: [Action]
        switch assembler.take(opcode: opcode, fin: fin, data: data) {
        case .incomplete: return actions
        case .message(let message): outcome = received(message, now: now)
        case .close(let code, let reason): outcome = close(code, reason, then: .closeNow)
        }
        return actions.isEmpty ? outcome : actions + outcome  // a whole frame's actions, with no copy
    }

    /// A ping: answered within the frame budget.
    mutating func pingReceived(_ payload: ByteBuffer, now: Int64) -> [Action] {
        guard !isClosing else { return [] }
        let actions = chargeControl(now: now)
        return actions.isEmpty ? [.answerPing(payload)] : actions
    }

    /// A pong: the peer is alive.
    mutating func pongReceived(now: Int64) -> [Action] {
        guard !isClosing else { return [] }
        let actions = chargeControl(now: now)
        if actions.isEmpty { awaitingPong = false }
        return actions
    }

    /// A frame that breaks RFC 6455 (unmasked, a reserved bit set): the socket is closed at once.
    mutating func violated(_ reason: String) -> [Action] {
        guard !isClosing else { return [] }
        return close(.protocolError, reason, then: .closeNow)
    }

    /// The stream cannot be read further (the frame decoder's error, an unknown opcode).
    mutating func unreadable(_ code: WebSocketErrorCode, _ reason: String) -> [Action] {
        close(code, reason, then: .closeNow)
    }

    /// The peer sent a close frame: answered (unless ours went first, `closeSent`; ``PeerClose``), then the
    /// connection closes. A peer that goes away (1001: its app went to the background, a page was left)
    /// keeps its user's presence for the grace (``ServerConfiguration/Sockets/presenceGrace``).
    mutating func peerClosed(_ payload: ByteBuffer, closeSent: Bool) -> [Action] {
        phase = .closing
        guard !closeSent else { return [.closeConnection] }
        let answer = PeerClose.answer(to: payload)
        peerWentAway = answer.code == .goingAway
        return [.close(answer.code, answer.reason, then: .closeNow)]
    }

    /// The peer ended its input without a close frame (Hummingbird's connections allow half closure).
    mutating func inputClosed() -> [Action] {
        phase = .closing
        return [.closeChannel]
    }

    // MARK: The channel

    /// NIO holds more (or, again, fewer) of the socket's frames than its water marks.
    mutating func writabilityChanged(isWritable: Bool) -> [Action] {
        outputIsBlocked = !isWritable
        return readingAction()
    }

    /// The socket's work for the hub piles up: it is read no further until the lane catches up.
    mutating func laneFilled() -> [Action] {
        laneIsFull = true
        return readingAction()
    }

    /// The socket's lane has caught up with its work.
    mutating func laneCaughtUp() -> [Action] {
        laneIsFull = false
        return readingAction()
    }

    /// The server stops: a socket the hub has not closed yet (one still saying hello) is closed now.
    mutating func quiesced() -> [Action] {
        if !isClosing { countsAsRefused = false }
        return close(.goingAway, "server shutting down")
    }

    /// The channel is gone: the hub forgets the socket, the timers stop.
    mutating func closed() -> [Action] {
        phase = .closing
        return [.cancelTimers, .submit(.disconnect(wentAway: peerWentAway)), .releaseLane] + (countsAsRefused ? [.countRefusal] : [])
    }

    // MARK: Timers

    /// No valid `hello` came within the hello timeout.
    mutating func helloTimedOut() -> [Action] {
        switch phase {
        case .awaitingHello, .authenticating: close(.policyViolation, "no valid hello within \(rules.helloTimeout) ms")
        case .open, .closing: []
        }
    }

    /// Time to ping; a peer that did not answer the last ping is taken for dead and dropped.
    mutating func pingDue() -> [Action] {
        guard !awaitingPong else { return close(.goingAway, "no answer to a ping", then: .closeNow) }
        awaitingPong = true
        return [.sendPing]
    }

    /// The token the socket said hello with has expired.
    mutating func tokenExpired() -> [Action] {
        [.sendHelloFailure(.unauthorized, "The token expired; connect again with a new token.")]
            + close(.policyViolation, "token expired")
    }

    // MARK: The hub's answers

    /// The hub took the socket: the hello deadline is over, the frames read behind the hello are handled, the
    /// socket is read again, and it lives no longer than its token.
    mutating func opened(tokenExpiresAt expiresAt: Date, now: Int64) -> [Action] {
        guard case .authenticating(let held) = phase else { return [.cancelHelloDeadline] }
        phase = .open
        countsAsRefused = false
        var actions: [Action] = [.cancelHelloDeadline]
        actions += readingAction()
        for message in held where !isClosing { actions += triage(message, now: now) }
        return actions + [.scheduleTokenExpiry(expiresAt)]
    }

    /// The hub refused the `hello` (``ConnectRefusal``, an invalid token); `blame` says whether the server
    /// was at fault (its storage, its shutdown), which does not count against the client's address.
    mutating func refused(_ code: WebSocketErrorCode, _ reason: String, blame: SocketContext.Blame) -> [Action] {
        if blame == .server { countsAsRefused = false }
        return close(code, reason)
    }

    /// The handshake budget of the user a `hello`'s token names (``Action/checkHandshakeBudget(token:unchecked:)``):
    /// a user past it is refused before their token costs a verification, a task and the hub's turn (the socket
    /// is read again, for the peer's close); anyone else's `hello` goes to the hub.
    mutating func handshakeBudgetChecked(_ refusal: ConnectRefusal?, token: String, unchecked: UncheckedToken?) -> [Action] {
        guard case .authenticating = phase else { return [] }  // closed meanwhile
        guard let refusal else { return [.submit(.hello(token: token, unchecked: unchecked))] }
        return [.sendHelloFailure(refusal.code, refusal.message)] + close(.unknown(1013), refusal.message) + readingAction()
    }

    /// A fresh token was accepted (`refresh`): the socket lives until it expires instead, and is told so.
    mutating func refreshed(tokenExpiresAt expiresAt: Date) -> [Action] {
        phase == .open ? [.scheduleTokenExpiry(expiresAt), .sendRefreshed(expiresAt)] : []
    }

    /// The lane reached the close for flooding, after the answers to the socket's earlier frames.
    mutating func floodClosing(_ reason: String) -> [Action] {
        close(.policyViolation, reason, then: .closeNow)
    }

    // MARK: Decisions

    private mutating func received(_ message: MessageAssembler.Message, now: Int64) -> [Action] {
        switch phase {
        case .awaitingHello(let refused):
            guard let hello = Self.hello(in: message) else {
                let failure = Action.sendHelloFailure(.unauthorized, "Send {\"type\":\"hello\",\"token\":\"…\"} first.")
                guard refused + 1 < SocketRules.framesBeforeHello else {
                    return [failure] + close(.policyViolation, "no valid hello in \(refused + 1) frames")
                }
                phase = .awaitingHello(refused: refused + 1)
                return [failure]
            }
            phase = .authenticating(held: [])
            // After it, frames up to `frameLimit`, so that a frame over the configured limit can be answered
            // with `too_large` and the socket kept, rather than torn down.
            assembler.maxSize = rules.frameLimit
            return readingAction() + [.checkHandshakeBudget(token: hello.token, unchecked: UncheckedToken(of: hello.token))]
        case .authenticating(var held):
            // What the last read brought behind the hello: bounded by one read, and by this count.
            guard held.count < SocketRules.framesBehindHello else {
                return close(.policyViolation, "more than \(SocketRules.framesBehindHello) frames before welcome", then: .closeNow)
            }
            held.append(message)
            phase = .authenticating(held: held)
            return []
        case .open:
            return triage(message, now: now)
        case .closing:
            return []
        }
    }

    /// A message of a welcomed socket: to the hub within its budgets; answered, dropped or closed for past them.
    private mutating func triage(_ message: MessageAssembler.Message, now: Int64) -> [Action] {
        switch MessageTriage.triage(message, gate: &gate, rules: rules, now: now) {
        case .work(let work): [.submit(work)]
        case .dropped(let type): [.countDropped(received: type)]
        case .answered(let failure, let type): [.countDropped(received: type), .submit(.answer(failure))]
        case .badFrameAnswered(let failure, let type): [.countReceived(type), .submit(.answer(failure))]
        case .flooded(let reason, let type): [.countDropped(received: type)] + closeForFlooding(reason)
        }
    }

    /// A ping, a pong or a fragment before a message's last takes a token of the frame budget
    /// (``InboundGate/checkControl(now:)``); a flood of them closes the socket.
    /// - Returns: Nothing if the frame is within the budget.
    private mutating func chargeControl(now: Int64) -> [Action] {
        switch gate.checkControl(now: now) {
        case .pass: []
        case .close(let reason): [.countDropped(received: nil)] + closeForFlooding(reason)
        case .drop, .refuse: [.countDropped(received: nil)]
        }
    }

    /// A socket that keeps flooding is read no more, from now, and is not owed a close handshake. The close
    /// goes after the answers to its earlier frames (the `rate_limited` that told it), which it would lose.
    private mutating func closeForFlooding(_ reason: String) -> [Action] {
        phase = .closing
        countsAsRefused = true
        stoppedForFlooding = true
        return readingAction() + [.submit(.closeForFlooding(reason: reason))]
    }

    /// Sends a close frame (once), after what is queued.
    private mutating func close(_ code: WebSocketErrorCode, _ reason: String, then after: AfterClose = .waitForPeer) -> [Action] {
        phase = .closing
        return [.close(code, reason, then: after)]
    }

    /// Reads the socket, or stops, as its phase and its queues say: not while its hello is checked, its work
    /// for the hub piles up or its peer does not read what it is sent; never again once it flooded. A
    /// socket that is closing otherwise is still read, for the peer's close frame.
    private mutating func readingAction() -> [Action] {
        let read =
            switch phase {
            case .authenticating: false
            case .awaitingHello, .open: !laneIsFull && !outputIsBlocked
            case .closing: !stoppedForFlooding
            }
        guard read != reading else { return [] }
        reading = read
        return [.setReading(read)]
    }

    /// The `hello` a message before it carries, if it is one.
    private static func hello(in message: MessageAssembler.Message) -> ClientFrame.Hello? {
        guard case .text(let text) = message, case .hello(let hello)? = try? FrameCodec.decodeClientFrame(text: text) else {
            return nil
        }
        return hello
    }
}
