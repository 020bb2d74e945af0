import Foundation
import NIOCore
import NIOWebSocket
import TypewireCore

/// One WebSocket, from `hello` to close, as a channel handler on the socket's event loop: no task, stream
/// or writer of its own while the socket is idle.
///
/// It decides nothing itself: what happens on the channel, its timers (the hello timeout, the token's
/// expiry, the pings) and the hub's answers go to the socket's ``SocketStateMachine``, and the actions that
/// come back are run in one place (``run(_:)``). Frames go to the hub in order through the socket's
/// ``SocketLane`` (one the hub takes at once, such as typing where the user is known, with nothing of the
/// socket's before it, is handed over without a task); the hub's frames come back through the socket's
/// ``ChannelSink``.
///
/// Everything here belongs to the channel's event loop.
final class SocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame

    private let shared: SocketContext
    private var machine: SocketStateMachine
    private var sink: ChannelSink?
    /// The socket's work, with when its frame was read (with ``StageTimings`` only).
    private var lane: SocketLane<(SocketContext.Work, NIODeadline?), HubShard>?
    /// The loop's timers, where this socket's are armed.
    private var timers: TimerQueue?
    private var helloDeadline: TimerQueue.Timer?
    private var tokenExpiry: TimerQueue.Timer?
    private var nextPing: TimerQueue.Timer?
    /// The peer's address, for ``AddressRefusals`` and ``PendingHandshakes``.
    private var peer: SocketAddress?
    /// Whether the socket counts among its address's handshakes (from its upgrade to its `welcome`).
    private var awaitingWelcome = false
    /// What the hub knows the socket as, once its `hello` went through.
    private let registration = SocketContext.Registration()

    /// The longest timer armed, in milliseconds (400 days): `TimeAmount.milliseconds` multiplies into
    /// nanoseconds and traps past about 292 years.
    static let longestTimer: Int64 = 400 * 86_400_000

    /// NIO's water marks of a socket's unsent bytes: past the high one the socket is read no more until its
    /// peer has read down to the low one.
    static let outputWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 32 * 1_024, high: 128 * 1_024)

    /// The most of a socket's bytes the kernel holds unsent (`TCP_NOTSENT_LOWAT`, Linux): past it a write waits.
    static let kernelUnsentBytes: SocketOptionValue = 128 * 1_024

    init(shared: SocketContext) {
        self.shared = shared
        self.machine = SocketStateMachine(rules: shared.rules)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let configuration = shared.configuration
        let channel = context.channel
        peer = channel.remoteAddress
        guard shared.pendingHandshakes.opened(peer) else {
            // Its address has as many sockets waiting for their `welcome` as it may: closed before a byte is read.
            return context.close(promise: nil)
        }
        awaitingWelcome = true
        let sink = ChannelSink(
            channel: channel, writer: shared.writers.writer(for: context.eventLoop),
            maxHeldBytes: configuration.sockets.maxQueuedBytes, closeTimeout: TimeAmount(configuration.sockets.closeTimeout)
        )
        self.sink = sink
        try? channel.syncOptions?.setOption(ChannelOptions.writeBufferWaterMark, value: Self.outputWaterMark)
        #if os(Linux)
            // The kernel keeps at most `kernelUnsentBytes` of the socket's bytes unsent; the rest waits in NIO,
            // where the water marks and the socket's bound see it. Without it the kernel's buffer grows to megabytes
            // for a peer that reads nothing, so the server goes on making frames for it (a `subscribed` may be
            // 64 KiB) long after the peer stopped reading.
            try? channel.syncOptions?.setOption(
                ChannelOptions.tcpOption(.init(rawValue: TCP_NOTSENT_LOWAT)), value: Self.kernelUnsentBytes)
        #endif
        let registration = self.registration
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let shared = shared
        lane = SocketLane(
            owner: shared.hub.shard(on: context.eventLoop),
            work: { item, shard in
                let outcome = await shared.perform(item.0, readAt: item.1, on: shard, sink: sink, registration: registration)
                guard case .done = outcome else {
                    return eventLoop.execute { loopBound.value.workFinished(outcome) }
                }
            },
            resume: { eventLoop.execute { loopBound.value.run(loopBound.value.machine.laneCaughtUp()) } }
        )
        let timers = shared.timers.queue(for: eventLoop)
        self.timers = timers
        helloDeadline = timers.schedule(in: TimeAmount(configuration.sockets.helloTimeout)) {
            self.run(self.machine.helloTimedOut())
        }
        schedulePing()
    }

    /// Arms the next ping, one interval from now; each ping arms the one after it until the timers are cancelled.
    /// A timer's action holds the handler until it runs or is cancelled (``SocketStateMachine/Action/cancelTimers``).
    private func schedulePing() {
        nextPing = timers?.schedule(in: TimeAmount(shared.configuration.sockets.pingInterval)) {
            self.schedulePing()
            self.run(self.machine.pingDue())
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        sink?.writabilityReturned()  // nothing waits for a closed socket
        handshakeEnded()
        run(machine.closed())
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed: run(machine.inputClosed())
        case is ChannelShouldQuiesceEvent: run(machine.quiesced())
        default: break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { sink?.writabilityReturned() }
        run(machine.writabilityChanged(isWritable: context.channel.isWritable))
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The frame decoder's errors: the stream cannot be read further.
        let code: WebSocketErrorCode = (error as? NIOWebSocketError) == .invalidFrameLength ? .messageTooLarge : .protocolError
        run(machine.unreadable(code, "unreadable frame: \(error)"))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // RFC 6455 §5.1, §5.2: a client masks every frame, and no extension was agreed on.
        guard frame.maskKey != nil, !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            return run(machine.violated(frame.maskKey == nil ? "an unmasked frame" : "a reserved bit set"))
        }
        let now = shared.hub.now()
        switch frame.opcode {
        case .ping: run(machine.pingReceived(frame.unmaskedData, now: now))
        case .pong: run(machine.pongReceived(now: now))
        case .connectionClose: run(machine.peerClosed(frame.unmaskedData, closeSent: sink?.closeSent ?? true))
        case .text, .binary, .continuation:
            run(machine.dataReceived(frame.opcode, fin: frame.fin, data: frame.unmaskedData, now: now))
        default: run(machine.unreadable(.protocolError, "unknown opcode"))
        }
    }

    /// The hub finished an item of the socket's work that asks something of the socket.
    private func workFinished(_ outcome: SocketContext.Outcome) {
        switch outcome {
        case .done: break
        case .opened(let expiresAt):
            handshakeEnded()
            run(machine.opened(tokenExpiresAt: expiresAt, now: shared.hub.now()))
        case .refreshed(let expiresAt): run(machine.refreshed(tokenExpiresAt: expiresAt))
        case .refused(let code, let reason, let blame): run(machine.refused(code, reason, blame: blame))
        case .flooded(let reason): run(machine.floodClosing(reason))
        }
    }

    /// Runs the machine's actions, in order.
    private func run(_ actions: [SocketStateMachine.Action]) {
        for action in actions { run(action) }
    }

    private func run(_ action: SocketStateMachine.Action) {
        switch action {
        case .setReading(let read):
            sink?.channel.setOption(ChannelOptions.autoRead, value: read).whenFailure { _ in }
        case .submit(let work):
            let readAt = shared.hub.metrics.stages == nil ? nil : NIODeadline.now()
            let pause = lane?.submit((work, readAt)) { [shared, registration] item, shard in
                shared.performAtOnce(item.0, readAt: item.1, on: shard, registration: registration)
            }
            if pause == true { run(machine.laneFilled()) }
        case .checkHandshakeBudget(let token, let unchecked):
            run(machine.handshakeBudgetChecked(shared.spentHandshake(unchecked), token: token, unchecked: unchecked))
        case .sendHelloFailure(let code, let message):
            sink?.send(SocketContext.helloFailure(code, message))
        case .sendRefreshed(let expiresAt):
            sink?.send(Hub.encode(.refreshed(.init(expiresAt: Int64(clampingMilliseconds: expiresAt.timeIntervalSince1970)))))
            shared.hub.metrics.sent("refreshed")
        case .sendPing:
            sink?.send(OutboundFrame(control: .ping, payload: ByteBuffer()))
        case .answerPing(let payload):
            sink?.answerPing(payload)
        case .close(let code, let reason, let after):
            cancel(&helloDeadline)
            sink?.closeNow(code: code, reason: reason, waitForPeer: after == .waitForPeer)
            if after == .closeNow { sink?.closeAfterFlush() }
        case .closeConnection:
            sink?.closeAfterFlush()
        case .closeChannel:
            sink?.channel.close(promise: nil)
        case .countDropped(let type):
            if let type { shared.hub.metrics.received(type) }
            shared.hub.metrics.droppedByRateLimit.increment()
        case .countReceived(let type):
            shared.hub.metrics.received(type)
        case .cancelHelloDeadline:
            cancel(&helloDeadline)
        case .scheduleTokenExpiry(let expiresAt):
            // A token lives at most a year (TokenRules.maxLifetime); the clamp keeps the arithmetic safe anyway.
            let wait = Int64(clampingMilliseconds: max(0, expiresAt.timeIntervalSinceNow))
            cancel(&tokenExpiry)  // a refreshed token replaces the one before
            tokenExpiry = timers?.schedule(in: .milliseconds(Swift.min(wait, Self.longestTimer))) {
                self.run(self.machine.tokenExpired())
            }
        case .cancelTimers:
            cancel(&helloDeadline)
            cancel(&tokenExpiry)
            cancel(&nextPing)
        case .releaseLane:
            lane = nil  // its work refers to this handler: the lane goes once its last item ran
        case .countRefusal:
            shared.refusals.refused(peer)
        }
    }

    /// The socket no longer counts among its address's handshakes: welcomed, or closed.
    private func handshakeEnded() {
        guard awaitingWelcome else { return }
        awaitingWelcome = false
        shared.pendingHandshakes.ended(peer)
    }

    private func cancel(_ timer: inout TimerQueue.Timer?) {
        if let armed = timer { timers?.cancel(armed) }
        timer = nil
    }
}
