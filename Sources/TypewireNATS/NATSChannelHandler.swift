import NIOCore
import NIOSSL
import NIOTLS

/// Runs one connection's ``NATSConnectionStateMachine``: feeds it what the server sent and its timers, and
/// does what it decides (writes, the client's callbacks, the close). Confined to its channel's event loop.
final class NATSChannelHandler: ChannelInboundHandler {
    typealias InboundIn = NATSServerMessage
    typealias OutboundOut = ByteBuffer

    /// What the connection tells its client, on the channel's event loop.
    struct Callbacks {
        /// The handshake is done: the client sends its subscriptions and what waits.
        var ready: (Channel, NATSServerInfo) -> Void
        /// The server described itself again.
        var info: (Channel, NATSServerInfo) -> Void
        /// A message for a subscription.
        var message: (NATSMessage) -> Void
        /// The channel can take writes again.
        var writable: (Channel) -> Void
        /// The server refused something without closing (a subject the credentials may not use).
        var report: (String) -> Void
        /// The channel closed, with the reason when this side closed it.
        var closed: (Channel, NATSProtocolError?) -> Void
    }

    private var machine: NATSConnectionStateMachine
    private let connect: NATSConnectOptions
    /// The context of a TLS upgrade, and the server (its host names the certificate's).
    private let tls: (context: NIOSSLContext, server: NATSServerAddress)
    private let pingInterval: TimeAmount
    private let handshakeTimeout: TimeAmount
    private let callbacks: Callbacks
    /// Succeeded when the handshake is done; failed with the reason if the connection closes before.
    private let handshake: EventLoopPromise<NATSServerInfo>
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    /// Why the connection was closed, when the machine closed it.
    private(set) var closeReason: NATSProtocolError?

    init(
        connect: NATSConnectOptions, tls: (context: NIOSSLContext, server: NATSServerAddress), pingInterval: TimeAmount,
        maxPingsOutstanding: Int, handshakeTimeout: TimeAmount, handshake: EventLoopPromise<NATSServerInfo>, callbacks: Callbacks
    ) {
        machine = NATSConnectionStateMachine(maxPingsOutstanding: maxPingsOutstanding, requiresTLS: tls.server.requiresTLS)
        self.connect = connect
        self.tls = tls
        self.pingInterval = pingInterval
        self.handshakeTimeout = handshakeTimeout
        self.handshake = handshake
        self.callbacks = callbacks
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        arm(after: handshakeTimeout) { $0.handshakeTimerFired() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        run(machine.received(unwrapInboundIn(data)))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is NIOSSLError || error is BoringSSLError {
            return run(machine.tlsFailed("\(error)"))
        }
        run(machine.decodingFailed(error as? NATSProtocolError ?? .malformed("\(error)")))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent { run(machine.tlsEstablished()) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { callbacks.writable(context.channel) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        machine.channelClosed()
        handshake.fail(closeReason ?? NATSProtocolError.server("the connection closed"))
        callbacks.closed(context.channel, closeReason)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    private func run(_ action: NATSConnectionStateMachine.Action) {
        guard let context else { return }
        switch action {
        case .none:
            break
        case .startTLS:
            // The server's INFO was plain text and it sends nothing more until the client's hello: TLS
            // goes in front of the decoder now, and CONNECT follows once its handshake is done.
            do {
                let host = tls.server.host
                let isAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
                let handler = try NIOSSLClientHandler(context: tls.context, serverHostname: isAddress ? nil : host)
                try context.pipeline.syncOperations.addHandler(handler, position: .first)
            } catch {
                run(machine.tlsFailed("\(error)"))
            }
        case .sendConnect:
            var buffer = context.channel.allocator.buffer(capacity: 256)
            NATSCommand.writeConnect(connect, into: &buffer)
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        case .sendPong:
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: NATSCommand.pong)), promise: nil)
        case .sendPing:
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: NATSCommand.ping)), promise: nil)
            arm(after: pingInterval) { $0.pingTimerFired() }
        case .ready(let info):
            callbacks.ready(context.channel, info)
            handshake.succeed(info)
            arm(after: pingInterval) { $0.pingTimerFired() }
        case .updateInfo(let info):
            callbacks.info(context.channel, info)
        case .deliver(let message):
            callbacks.message(message)
        case .report(let reason):
            callbacks.report(reason)
        case .close(let reason):
            closeReason = reason
            timer?.cancel()
            context.close(promise: nil)
        }
    }

    /// Sets the one timer (the handshake's, then the pings').
    private func arm(after delay: TimeAmount, _ event: @escaping (inout NATSConnectionStateMachine) -> NATSConnectionStateMachine.Action) {
        guard let context else { return }
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            run(event(&machine))
        }
    }
}
