import Foundation
import NIOCore
import NIOWebSocket
import TypewireCore

/// One WebSocket, from `hello` to close, as a channel handler on the socket's event loop: no task, stream
/// or writer of its own while the socket is idle.
///
/// The first frame must be a valid `hello` within the configured time, or the socket is closed with the
/// policy-violation code (1008). While the hello is checked the socket is not read, and frames already read
/// behind it wait undecoded: a socket whose hello is refused costs no decoding of what it sent after it.
/// After that, frames within their budgets (``InboundGate``) go to the hub
/// in order through the socket's ``SocketLane``; frames that cannot be decoded are answered with an
/// `error` frame and the socket stays usable. The hub's frames come back through the socket's
/// ``ChannelOutbox``. The hello timeout, the token's expiry and the pings are scheduled tasks of the loop.
/// Whether the socket is read is decided in one place (`updateReading`): not while its hello is checked,
/// its work for the hub piles up, or its peer leaves what it is sent unread; never again once it flooded.
///
/// Everything here belongs to the channel's event loop.
final class SocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    private enum Phase {
        /// No valid `hello` yet; `refused` frames were answered.
        case awaitingHello(refused: Int)
        /// The hello is being checked: the socket is not read, and frames read with the hello wait undecoded.
        case authenticating(held: [MessageAssembler.Message])
        /// Registered with the hub.
        case open
        /// Closing or closed: frames are dropped.
        case closing
    }

    private let session: SocketSession
    private var phase = Phase.awaitingHello(refused: 0)
    private var assembler = MessageAssembler(maxSize: SocketSession.helloFrameLimit)
    private var gate: InboundGate
    private var outbox: ChannelOutbox?
    private var lane: SocketLane<SocketSession.Work, HubShard>?
    private var helloDeadline: Scheduled<Void>?
    private var tokenExpiry: Scheduled<Void>?
    private var pings: RepeatedTask?
    private var awaitingPong = false
    /// The peer's address, for ``AddressRefusals``.
    private var peer: SocketAddress?
    /// Whether the socket counts as refused for its client's address when it closes: until it is welcomed
    /// (unless the server was at fault), and once it is closed for flooding.
    private var countsAsRefused = true
    /// Its work for the hub piles up (``SocketLane``): it is not read until the lane catches up.
    private var laneIsFull = false
    /// NIO holds more of its frames than the high water mark (``outputWaterMark``): the peer does not read
    /// what it is sent, so what it sends is not read either, and it cannot make the server work for answers
    /// it will not take. Cut off when its frames pass their bound (``SentBytes``), or by the ping timeout.
    private var outputIsBlocked = false
    /// Closed for flooding: read no more.
    private var stoppedForFlooding = false
    /// Whether the channel reads now (`autoRead`), as ``updateReading(_:)`` last set it.
    private var reading = true

    /// NIO's water marks of a socket's unsent bytes: past the high one the socket is read no more until its
    /// peer has read down to the low one.
    static let outputWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 32 * 1_024, high: 128 * 1_024)

    init(session: SocketSession) {
        self.session = session
        self.gate = InboundGate(session.configuration.budgets)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let configuration = session.configuration
        let channel = context.channel
        peer = channel.remoteAddress
        let outbox = ChannelOutbox(
            channel: channel, writer: session.writers.writer(for: context.eventLoop), maxHeldBytes: configuration.sockets.maxQueuedBytes,
            closeTimeout: TimeAmount(configuration.sockets.closeTimeout)
        )
        self.outbox = outbox
        try? channel.syncOptions?.setOption(ChannelOptions.writeBufferWaterMark, value: Self.outputWaterMark)
        let registration = SocketSession.Registration()
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let session = session
        lane = SocketLane(
            owner: session.hub.shard(on: context.eventLoop),
            work: { work, shard in
                await session.perform(
                    work, on: shard, outbox: outbox, registration: registration,
                    opened: { expiresAt in eventLoop.execute { loopBound.value.opened(tokenExpiresAt: expiresAt) } },
                    refused: { code, reason, serversFault in
                        eventLoop.execute {
                            if serversFault { loopBound.value.countsAsRefused = false }
                            loopBound.value.close(code, reason)
                        }
                    },
                    flooded: { reason in eventLoop.execute { loopBound.value.close(.policyViolation, reason, then: .closeNow) } }
                )
            },
            resume: { eventLoop.execute { loopBound.value.laneCaughtUp() } }
        )
        let helloTimeout = configuration.sockets.helloTimeout.wholeMilliseconds
        helloDeadline = eventLoop.scheduleTask(in: .milliseconds(helloTimeout)) {
            loopBound.value.close(.policyViolation, "no valid hello within \(helloTimeout) ms")
        }
        let interval = TimeAmount(configuration.sockets.pingInterval)
        pings = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in loopBound.value.ping() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        phase = .closing
        helloDeadline?.cancel()
        tokenExpiry?.cancel()
        pings?.cancel()
        _ = lane?.submit(.disconnect)
        lane = nil  // its work refers to this handler: the lane goes once its last item ran
        if countsAsRefused { session.refusals.refused(peer) }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            // Hummingbird's connections allow half closure: a peer gone without a close frame ends its input only.
            phase = .closing
            context.close(promise: nil)
        case is ChannelShouldQuiesceEvent:
            // The server stops (Hummingbird's graceful shutdown waits for every connection to close): the
            // sockets the hub already closed are closing; this closes the others (one still saying hello).
            if !isClosing { countsAsRefused = false }
            close(.goingAway, "server shutting down")
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        outputIsBlocked = !context.channel.isWritable
        updateReading(context.channel)
        context.fireChannelWritabilityChanged()
    }

    /// Reads the socket, or stops, as its phase and its queues say: not while its hello is checked, its work
    /// for the hub piles up or its peer does not read what it is sent; never again once it flooded. A
    /// socket that is closing otherwise is still read, for the peer's close frame.
    private func updateReading(_ channel: any Channel) {
        let read = switch phase {
        case .authenticating: false
        case .awaitingHello, .open: !laneIsFull && !outputIsBlocked
        case .closing: !stoppedForFlooding
        }
        guard read != reading else { return }
        reading = read
        channel.setOption(ChannelOptions.autoRead, value: read).whenFailure { _ in }
    }

    /// The socket's lane has caught up with its work.
    private func laneCaughtUp() {
        laneIsFull = false
        if let channel = outbox?.channel { updateReading(channel) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The frame decoder's errors: the stream cannot be read further.
        let code: WebSocketErrorCode = (error as? NIOWebSocketError) == .invalidFrameLength ? .messageTooLarge : .protocolError
        close(code, "unreadable frame: \(error)", then: .closeNow)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // RFC 6455 §5.1, §5.2: a client masks every frame, and no extension was agreed on.
        guard frame.maskKey != nil, !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            guard !isClosing else { return }
            return close(.protocolError, frame.maskKey == nil ? "an unmasked frame" : "a reserved bit set", then: .closeNow)
        }
        switch frame.opcode {
        case .ping:
            guard !isClosing, admitControl(channel: context.channel) else { return }
            outbox?.answerPing(frame.unmaskedData)
        case .pong:
            guard !isClosing, admitControl(channel: context.channel) else { return }
            awaitingPong = false
        case .connectionClose:
            peerClosed(frame)
        case .text, .binary, .continuation:
            guard !isClosing else { return }
            if !frame.fin {
                _ = admitControl(channel: context.channel)  // a fragment cannot be dropped: a flood of them closes
                guard !isClosing else { return }
            }
            switch assembler.take(opcode: frame.opcode, fin: frame.fin, data: frame.unmaskedData) {
            case .incomplete: break
            case .message(let message): handle(message, context: context)
            case .close(let code, let reason): close(code, reason, then: .closeNow)
            }
        default:
            close(.protocolError, "unknown opcode", then: .closeNow)
        }
    }

    /// Spends a token of the frame budget for a ping, a pong or a fragment before a message's last
    /// (``InboundGate/admitControl(now:)``); a flood of them closes the socket.
    /// - Returns: Whether the frame is within the budget.
    private func admitControl(channel: any Channel) -> Bool {
        switch gate.admitControl(now: session.hub.now()) {
        case .pass: return true
        case .close(let reason): closeForFlooding(reason, channel: channel)
        case .drop, .refuse: session.hub.metrics.droppedByRateLimit.increment()
        }
        return false
    }

    // MARK: Messages

    private func handle(_ message: MessageAssembler.Message, context: ChannelHandlerContext) {
        switch phase {
        case .awaitingHello(let refused):
            guard let hello = SocketSession.hello(in: message) else {
                outbox?.send(SocketSession.helloFailure(.unauthorized, "Send {\"type\":\"hello\",\"token\":\"…\"} first."))
                guard refused + 1 < SocketSession.framesBeforeHello else {
                    return close(.policyViolation, "no valid hello in \(refused + 1) frames")
                }
                phase = .awaitingHello(refused: refused + 1)
                return
            }
            let unchecked = UncheckedToken(of: hello.token)
            if let refusal = session.spentHandshake(unchecked) {
                outbox?.send(SocketSession.helloFailure(refusal.code, refusal.message))
                return close(.unknown(1013), refusal.message)
            }
            phase = .authenticating(held: [])
            updateReading(context.channel)  // nothing more is read until the hub answers (`opened`), or the socket is closed
            // After it, frames up to `socketFrameLimit`, so that a frame over the configured limit can be answered
            // with `too_large` and the socket kept, rather than torn down.
            assembler.maxSize = session.configuration.sockets.frameLimit
            submit(.hello(token: hello.token, unchecked: unchecked), channel: context.channel)
        case .authenticating(var held):
            // What the last read brought behind the hello: bounded by one read, and by this count.
            guard held.count < SocketSession.framesBehindHello else {
                return close(.policyViolation, "more than \(SocketSession.framesBehindHello) frames before welcome", then: .closeNow)
            }
            held.append(message)
            phase = .authenticating(held: held)
        case .open:
            admit(message, channel: context.channel)
        case .closing:
            break
        }
    }

    /// Hands a message of a welcomed socket to the hub, or answers, drops or closes for it (``InboundGate``).
    private func admit(_ message: MessageAssembler.Message, channel: any Channel) {
        switch session.admit(message, gate: &gate) {
        case .work(let work): submit(work, channel: channel)
        case .none: break
        case .close(let reason):
            closeForFlooding(reason, channel: channel)
        }
    }

    /// A socket that keeps flooding is read no more, from now, and is not owed a close handshake. The close
    /// goes after the answers to its earlier frames (the `rate_limited` that told it), which it would lose.
    private func closeForFlooding(_ reason: String, channel: any Channel) {
        phase = .closing
        countsAsRefused = true
        stoppedForFlooding = true
        updateReading(channel)
        if lane?.submit(.closeForFlooding(reason: reason)) == nil { close(.policyViolation, reason, then: .closeNow) }
    }

    /// Hands work to the lane; a socket whose work piles up is read no further until the lane catches up.
    private func submit(_ work: SocketSession.Work, channel: any Channel) {
        guard lane?.submit(work) == true else { return }
        laneIsFull = true
        updateReading(channel)
    }

    // MARK: Lifecycle

    /// The hub took the socket: the hello deadline is over, the frames read behind the hello are handled, the
    /// socket is read again, and it lives no longer than its token.
    private func opened(tokenExpiresAt expiresAt: Date) {
        helloDeadline?.cancel()
        guard case .authenticating(let held) = phase, let channel = outbox?.channel else { return }
        let eventLoop = channel.eventLoop
        phase = .open
        countsAsRefused = false
        updateReading(channel)
        for message in held where !isClosing { admit(message, channel: channel) }
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        let wait = max(0, expiresAt.timeIntervalSinceNow)
        tokenExpiry = eventLoop.scheduleTask(in: .milliseconds(Int64(wait * 1_000))) {
            loopBound.value.outbox?.send(SocketSession.helloFailure(.unauthorized, "The token expired; connect again with a new token."))
            loopBound.value.close(.policyViolation, "token expired")
        }
    }

    /// Pings the peer; one that did not answer the last ping is taken for dead and dropped.
    private func ping() {
        guard !awaitingPong else {
            close(.goingAway, "no answer to a ping", then: .closeNow)
            return
        }
        awaitingPong = true
        outbox?.send(OutboundFrame(control: .ping, payload: ByteBuffer()))
    }

    private var isClosing: Bool {
        if case .closing = phase { return true }
        return false
    }

    /// What follows a close frame of ours.
    private enum AfterClose {
        /// Wait for the peer's close frame, no longer than the close timeout.
        case waitForPeer
        /// Close the connection once the frame is written: the peer cannot be read or is gone.
        case closeNow
    }

    /// Sends a close frame (once), after what is queued.
    private func close(_ code: WebSocketErrorCode, _ reason: String, then after: AfterClose = .waitForPeer) {
        phase = .closing
        helloDeadline?.cancel()
        guard let outbox else { return }
        outbox.closeNow(code: code, reason: reason, waitForPeer: after == .waitForPeer)
        if after == .closeNow { outbox.closeAfterFlush() }
    }

    /// The peer sent a close frame: answered (unless ours went first; ``PeerClose``), then the connection
    /// closes, within the close timeout.
    private func peerClosed(_ frame: WebSocketFrame) {
        phase = .closing
        guard let outbox else { return }
        if !outbox.closeSent {
            let answer = PeerClose.answer(to: frame.unmaskedData)
            outbox.closeNow(code: answer.code, reason: answer.reason, waitForPeer: false)
        }
        outbox.closeAfterFlush()
    }
}
