import Atomics
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// The server's connections: HTTP/1 for Hummingbird, and at the socket path an upgrade to a WebSocket run by
/// channel handlers on the connection's event loop (no task or stream per socket).
///
/// Modelled on HummingbirdWebSocket's `HTTP1WebSocketUpgradeChannel`, which hands each socket to an async
/// handler instead. A request that asks for an upgrade elsewhere, or that the upgrade check refuses, gets 400.
/// The first connection also raises the accept budget of the listening socket (NIO takes 4 connections per
/// readable event by default; Hummingbird sets only the backlog).
package struct SocketChildChannel: ServerChildChannel, HTTPChannelHandler {
    /// What a connection became.
    package enum Upgrade: Sendable {
        /// A WebSocket: its handlers own it from now on.
        case socket
        /// HTTP requests, for Hummingbird.
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade was asked for and refused: answered with 400.
        case refusedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    package struct Value: ServerChildChannelValue {
        let upgrade: EventLoopFuture<Upgrade>
        package let channel: any Channel
    }

    package let responder: HTTPChannelHandler.Responder
    let http1: HTTP1Channel.Configuration
    /// The largest WebSocket frame read.
    let maxFrameSize: Int
    /// Connections the listening socket accepts per readable event.
    let acceptsPerRead: Int
    /// Whether a request may become a socket (path, origin); on the connection's event loop.
    let shouldUpgrade: @Sendable (HTTPRequestHead) -> Bool
    /// Adds the socket's handlers after the frame decoder; on the connection's event loop.
    let installSocket: @Sendable (any Channel) throws -> Void
    /// The sockets open now (a shutdown waits for them).
    package let sockets: OpenSockets
    private let acceptBudget = FirstTime()

    package init(
        responder: @escaping HTTPChannelHandler.Responder, http1: HTTP1Channel.Configuration, maxFrameSize: Int,
        acceptsPerRead: Int = 64, sockets: OpenSockets = OpenSockets(), shouldUpgrade: @escaping @Sendable (HTTPRequestHead) -> Bool,
        installSocket: @escaping @Sendable (any Channel) throws -> Void
    ) {
        self.sockets = sockets
        self.responder = responder
        self.http1 = http1
        self.maxFrameSize = maxFrameSize
        self.acceptsPerRead = acceptsPerRead
        self.shouldUpgrade = shouldUpgrade
        self.installSocket = installSocket
        warmUp()
    }

    /// Sets up a pipeline once, on this thread, on a channel that is no connection, before any connection
    /// comes: its generic types are then instantiated already when the loops set up their first connections at
    /// the same moment. The Swift runtime can crash when two threads instantiate the same generic metadata at
    /// once: seen here as a bad pointer in `swift_checkMetadataState` under
    /// `configureUpgradableHTTPServerPipeline`, with two loops setting up their first connections (300 opened
    /// at once by the abuse tests); swiftlang/swift#58414 reports the same frame.
    private func warmUp() {
        let channel = EmbeddedChannel()
        _ = try? configurePipeline(of: channel, logger: Logger(label: "typewire.warm-up"))
        _ = try? channel.finish()
    }

    /// The size of a connection's first read, and of the buffer it keeps for reading while it is open.
    ///
    /// NIO keeps the buffer of a channel's first read and reuses it for the next ones, growing it but never
    /// shrinking it, so an idle socket holds it for as long as it is open: 2 KiB with NIO's default first read.
    /// An HTTP request or a `hello` longer than this takes more reads (their buffers are not kept).
    static let firstRead = 512

    /// Reads in the HTTP phase: NIO's defaults (up to 64 KiB a read) but for a first read of ``firstRead``.
    static let httpReads = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: firstRead, maximum: 65_536)

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        if acceptBudget.now(), let listener = channel.parent {
            listener.setOption(ChannelOptions.maxMessagesPerRead, value: UInt(acceptsPerRead)).whenFailure { _ in }
        }
        return channel.eventLoop.makeCompletedFuture {
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.httpReads)
            return try configurePipeline(of: channel, logger: logger)
        }
    }

    /// A new connection's handlers: HTTP/1 with the socket upgrade. On the channel's event loop.
    private func configurePipeline(of channel: any Channel, logger: Logger) throws -> Value {
        let latch = NIOLoopBound(QuiesceLatch(), eventLoop: channel.eventLoop)
        try channel.pipeline.syncOperations.addHandler(latch.value)
        let upgradeAsked = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
        let upgrader = SocketUpgrader(
            maxFrameSize: maxFrameSize,
            shouldUpgrade: { channel, head in
                upgradeAsked.value = true
                return channel.eventLoop.makeSucceededFuture(shouldUpgrade(head) ? HTTPHeaders() : nil)
            },
            installSocket: { [sockets] channel in
                sockets.opened(channel)
                try installSocket(channel)
                channel.pipeline.syncOperations.removeHandler(latch.value, promise: nil)
            }
        )
        let http1 = http1
        let upgrades = NIOTypedHTTPServerUpgradeConfiguration<Upgrade>(
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    try channel.pipeline.syncOperations.addHandlers(http1.additionalChannelHandlers())
                    try channel.pipeline.syncOperations.addHandler(
                        HTTPConnectionStateHandler(idleTimeout: http1.idleTimeout.map { .init($0) }, logger: logger)
                    )
                    let asyncChannel = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                        wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true)
                    )
                    channel.pipeline.syncOperations.removeHandler(latch.value, promise: nil)
                    return upgradeAsked.value ? .refusedUpgrade(asyncChannel) : .http(asyncChannel)
                }
            }
        )
        var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Upgrade>(upgradeConfiguration: upgrades)
        configuration.enablePipelining = false  // HTTP is pipelined by NIOAsyncChannel
        configuration.enableErrorHandling = false  // Hummingbird answers errors
        configuration.enableResponseHeaderValidation = false  // Swift HTTP Types validate already
        configuration.decoderConfiguration.maxHeaderFieldSize = http1.httpDecoder.maxHeaderFieldSize
        configuration.decoderConfiguration.maxHeaderListSize = http1.httpDecoder.maxHeaderListSize
        configuration.decoderConfiguration.maxHeaderFieldCount = http1.httpDecoder.maxHeaderFieldCount
        let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
        return Value(upgrade: upgrade, channel: channel)
    }

    /// Runs on the connection's own event loop (``EventLoopTaskExecutor/run(preferring:_:)``): its upgrade is
    /// awaited, and its HTTP requests are read and answered, without a hop to another thread.
    package func handle(value: Value, logger: Logger) async {
        await EventLoopTaskExecutor.run(preferring: value.channel.eventLoop) { await handleOnItsLoop(value, logger: logger) }
    }

    private func handleOnItsLoop(_ value: Value, logger: Logger) async {
        do {
            switch try await value.upgrade.get() {
            case .socket:
                return  // its channel handlers own it; `sockets` counts it until it closes
            case .http(let http1):
                await handleHTTP(asyncChannel: http1, logger: logger)
            case .refusedUpgrade(let http1):
                try await http1.executeThenClose { _, outbound in
                    let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
                    try await outbound.write(contentsOf: [.head(head), .end(nil)])
                }
            }
        } catch {
            logger.debug("a connection ended before its first request was handled", metadata: ["error": "\(error)"])
        }
    }
}

/// The WebSocket upgrade of ``SocketChildChannel``: NIOWebSocket's handshake (the request's checks and the
/// `Sec-WebSocket-Accept` answer), then only NIOWebSocket's frame decoder and the socket's own handlers. The
/// socket writes whole frames of its own (``OutboundFrame``), so NIO's frame encoder is not installed.
private struct SocketUpgrader: NIOTypedHTTPServerProtocolUpgrader {
    typealias UpgradeResult = SocketChildChannel.Upgrade

    private let handshake: NIOTypedWebSocketServerUpgrader<UpgradeResult>
    private let maxFrameSize: Int
    private let installSocket: @Sendable (any Channel) throws -> Void

    init(
        maxFrameSize: Int, shouldUpgrade: @escaping @Sendable (any Channel, HTTPRequestHead) -> EventLoopFuture<HTTPHeaders?>,
        installSocket: @escaping @Sendable (any Channel) throws -> Void
    ) {
        self.handshake = NIOTypedWebSocketServerUpgrader(
            maxFrameSize: maxFrameSize, enableAutomaticErrorHandling: false, shouldUpgrade: shouldUpgrade,
            upgradePipelineHandler: { channel, _ in channel.eventLoop.makeSucceededFuture(.socket) }
        )
        self.maxFrameSize = maxFrameSize
        self.installSocket = installSocket
    }

    var supportedProtocol: String { handshake.supportedProtocol }
    var requiredUpgradeHeaders: [String] { handshake.requiredUpgradeHeaders }

    func buildUpgradeResponse(
        channel: any Channel, upgradeRequest: HTTPRequestHead, initialResponseHeaders: HTTPHeaders
    ) -> EventLoopFuture<HTTPHeaders> {
        handshake.buildUpgradeResponse(channel: channel, upgradeRequest: upgradeRequest, initialResponseHeaders: initialResponseHeaders)
    }

    /// What a socket reads per turn of its event loop: one read of at most this many bytes. A socket that
    /// floods is then read and decoded a little at a time, between the other sockets' reads, instead of up to
    /// four reads of 64 KiB (NIO's defaults) while the loop's other sockets wait. The buffer adapts below it
    /// as NIO's does (from 512 bytes, down to 64 for a quiet socket).
    static let bytesPerRead = 4_096

    /// Reads of a socket: from ``SocketChildChannel/firstRead`` bytes, adapting between 64 and ``bytesPerRead``.
    static let socketReads = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: SocketChildChannel.firstRead, maximum: bytesPerRead)

    func upgrade(channel: any Channel, upgradeRequest: HTTPRequestHead) -> EventLoopFuture<UpgradeResult> {
        channel.eventLoop.makeCompletedFuture {
            let options = channel.syncOptions
            try options?.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
            try options?.setOption(ChannelOptions.recvAllocator, value: Self.socketReads)
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxFrameSize)))
            try installSocket(channel)
            return .socket
        }
    }
}

/// True the first time it is asked, from any thread.
private final class FirstTime: Sendable {
    private let asked = ManagedAtomic<Bool>(false)

    func now() -> Bool { !asked.exchange(true, ordering: .relaxed) }
}
