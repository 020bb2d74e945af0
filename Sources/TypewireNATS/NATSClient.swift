import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// A client of NATS's core protocol on SwiftNIO: publish, subscribe, and one connection kept to any server
/// of a cluster.
///
/// No NATS client is among the Swift packages this project builds with (the official nats.swift is pre-1.0),
/// so this one implements what a cluster bus needs: `INFO`, `CONNECT` (user and password, or a token),
/// `PUB`, `SUB`, `UNSUB`, `MSG` by byte count, `PING`/`PONG`, `+OK`/`-ERR`, and TLS after `INFO` (swift-nio-ssl,
/// verifying the server's certificate against ``Configuration/tlsTrustRoots`` or the system's); no headers,
/// queue groups or JetStream.
///
/// - A lost connection is made again on any known server (those configured, and those the servers announce
///   in `INFO`), at once on the next one, then after a wait that doubles each round of failures; every
///   subscription is made again on the new connection before anything else is sent.
/// - Publications are written once per event-loop turn. While no server is connected, or the server reads
///   slower than they come, they wait, up to ``Configuration/maxPendingBytes``; past that one is dropped and
///   counted (``Statistics/publicationsDropped``), so memory stays bounded whatever the server does.
/// - What arrives goes to ``messages`` in order, up to ``Configuration/maxWaitingMessages`` waiting.
/// Delivery is at most once, as in NATS's core protocol.
public final class NATSClient: Sendable {
    /// Every message received on any subscription, in the order the server sent them (unless the client
    /// was made with a handler for them).
    public let messages: AsyncStream<NATSMessage>
    /// The connection coming and going.
    public let connectionEvents: AsyncStream<ConnectionEvent>
    /// The configuration.
    public let configuration: Configuration

    private let messageSink: AsyncStream<NATSMessage>.Continuation
    private let eventSink: AsyncStream<ConnectionEvent>.Continuation
    private let state: NIOLockedValueBox<Shared>
    private let group: any EventLoopGroup
    private let logger: Logger
    private let onMessage: (@Sendable (NATSMessage) -> Void)?
    private let tls: NIOSSLContext

    /// A client; it connects when ``run()`` runs.
    /// - Parameter onMessage: Where messages go instead of ``messages``: called on the connection's event
    ///   loop for each, in order, so it must not block (no task, no hop: for a receiver that dispatches
    ///   the work itself).
    /// - Throws: an `NIOSSLError` if ``Configuration/tlsTrustRoots`` cannot be read as PEM certificates.
    public init(
        configuration: Configuration, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger,
        onMessage: (@Sendable (NATSMessage) -> Void)? = nil
    ) throws {
        precondition(!configuration.servers.isEmpty, "a NATS client needs at least one server")
        var tls = TLSConfiguration.makeClientConfiguration()
        if let roots = configuration.tlsTrustRoots { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(roots)) }
        self.tls = try NIOSSLContext(configuration: tls)
        self.configuration = configuration
        group = eventLoopGroup
        self.logger = logger
        self.onMessage = onMessage
        (messages, messageSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(configuration.maxWaitingMessages))
        (connectionEvents, eventSink) = AsyncStream.makeStream()
        state = NIOLockedValueBox(Shared(servers: configuration.servers.shuffled(), template: configuration.servers[0]))
    }

    /// What the client has counted.
    public var statistics: Statistics {
        state.withLockedValue { state in
            var statistics = state.statistics
            statistics.pendingBytes = state.pending.readableBytes
            return statistics
        }
    }

    /// Every server known now: those configured and those the servers announced, in the order tried.
    public var knownServers: [NATSServerAddress] {
        state.withLockedValue { $0.servers }
    }

    /// Whether a server is connected now.
    public var isConnected: Bool {
        state.withLockedValue { $0.channel != nil }
    }

    // MARK: Running

    /// Connects, and connects again whenever the connection is lost, until the task is cancelled; then
    /// closes the connection and ends ``messages`` and ``connectionEvents``. Run it once.
    public func run() async {
        var failuresInARow = 0
        var connectedBefore = false
        while !Task.isCancelled {
            let server = state.withLockedValue { $0.nextServer() }
            do {
                let channel = try await open(server)
                failuresInARow = 0
                if connectedBefore { state.withLockedValue { $0.statistics.reconnects += 1 } }
                logger.info("connected to a NATS server", metadata: ["server": "\(server)"])
                eventSink.yield(.connected(server, reconnected: connectedBefore))
                connectedBefore = true
                await withTaskCancellationHandler {
                    try? await channel.closeFuture.get()
                } onCancel: {
                    channel.close(promise: nil)
                }
                let reason = state.withLockedValue { $0.lastCloseReason }
                if !Task.isCancelled {
                    logger.warning(
                        "lost the connection to a NATS server; connecting again",
                        metadata: ["server": "\(server)", "reason": "\(reason.map { "\($0)" } ?? "closed")"])
                }
                eventSink.yield(.disconnected(server, reason))
            } catch {
                guard !Task.isCancelled else { break }
                failuresInARow += 1
                logger.warning("could not connect to a NATS server", metadata: ["server": "\(server)", "error": "\(error)"])
                eventSink.yield(.connectFailed(server, reason: "\(error)"))
                let servers = state.withLockedValue { $0.servers.count }
                if failuresInARow.isMultiple(of: servers) {
                    try? await Task.sleep(for: reconnectWait(round: failuresInARow / servers))
                }
            }
        }
        messageSink.finish()
        eventSink.finish()
    }

    /// The wait after `round` rounds of failures: doubled each round up to the maximum, less up to a
    /// quarter at random so that the nodes of a cluster do not all come back at once.
    func reconnectWait(round: Int) -> Duration {
        let doubled = configuration.reconnectWait * (1 << min(max(round - 1, 0), 16))
        let wait = min(doubled, configuration.maxReconnectWait)
        return wait - wait * Double.random(in: 0..<0.25)
    }

    private func open(_ server: NATSServerAddress) async throws -> Channel {
        let eventLoop = group.next()
        let handshake = eventLoop.makePromise(of: NATSServerInfo.self)
        let connect = connectOptions(for: server)
        let configuration = configuration
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(configuration.connectTimeout.timeAmount)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = NATSChannelHandler(
                        connect: connect, tls: (tls, server), pingInterval: configuration.pingInterval.timeAmount,
                        maxPingsOutstanding: configuration.maxPingsOutstanding, handshakeTimeout: configuration.connectTimeout.timeAmount,
                        handshake: handshake, callbacks: callbacks())
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(NATSMessageDecoder()))
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        let channel: Channel
        do {
            channel = try await bootstrap.connect(host: server.host, port: server.port).get()
        } catch {
            handshake.fail(error)
            throw error
        }
        do {
            _ = try await handshake.futureResult.get()
        } catch {
            channel.close(promise: nil)
            throw error
        }
        return channel
    }

    private func connectOptions(for server: NATSServerAddress) -> NATSConnectOptions {
        var options = NATSConnectOptions(name: configuration.name)
        switch server.credentials {
        case .none: break
        case .userAndPassword(let user, let password): (options.user, options.pass) = (user, password)
        case .token(let token): options.authToken = token
        }
        return options
    }

    private func callbacks() -> NATSChannelHandler.Callbacks {
        .init(
            ready: { [self] channel, info in ready(channel, info) },
            info: { [self] channel, info in
                state.withLockedValue { $0.learn(info) }
                if info.lameDuckMode {
                    logger.info("the NATS server is going away; moving to another")
                    channel.close(promise: nil)
                }
            },
            message: { [self] message in
                if let onMessage { return onMessage(message) }
                if case .dropped = messageSink.yield(message) { state.withLockedValue { $0.statistics.messagesDropped += 1 } }
            },
            writable: { [self] channel in flush(channel) },
            report: { [self] reason in logger.error("the NATS server refused a command", metadata: ["reason": "\(reason)"]) },
            closed: { [self] channel, reason in
                state.withLockedValue { state in
                    guard state.isCurrent(channel) else { return }
                    state.channel = nil
                    state.flushScheduled = false
                    state.lastCloseReason = reason
                }
            }
        )
    }

    /// The handshake is done: subscriptions first, then what waited, in one write.
    private func ready(_ channel: Channel, _ info: NATSServerInfo) {
        let bytes = state.withLockedValue { state in
            state.learn(info)
            state.channel = channel
            state.lastCloseReason = nil
            state.flushScheduled = false
            var bytes = channel.allocator.buffer(capacity: state.pending.readableBytes + 64 * state.subscriptions.count)
            for (sid, subject) in state.subscriptions.sorted(by: { $0.key < $1.key }) {
                NATSCommand.writeSubscribe(subject: subject, sid: sid, into: &bytes)
            }
            bytes.writeBuffer(&state.pending)
            state.pending.clear()
            return bytes
        }
        if bytes.readableBytes > 0 { channel.writeAndFlush(bytes, promise: nil) }
    }

    // MARK: Publishing and subscribing

    /// Publishes a payload to a subject (no wildcards); it is written at the end of the event loop's turn.
    @discardableResult
    public func publish(_ payload: ByteBuffer, to subject: String) -> Publication {
        guard NATSSubject.isValid(subject), !subject.utf8.contains(UInt8(ascii: "*")), !subject.utf8.contains(UInt8(ascii: ">")) else {
            return .invalid
        }
        let maxPendingBytes = configuration.maxPendingBytes
        let (publication, channel) = state.withLockedValue { state -> (Publication, Channel?) in
            guard payload.readableBytes <= state.maxPayload else { return (.invalid, nil) }
            guard state.pending.readableBytes + NATSCommand.publishSize(subject: subject, payload: payload) <= maxPendingBytes else {
                state.statistics.publicationsDropped += 1
                return (.dropped, nil)
            }
            NATSCommand.writePublish(subject: subject, payload: payload, into: &state.pending)
            return (.queued, state.scheduleFlush())
        }
        if let channel { channel.eventLoop.execute { self.flush(channel) } }
        return publication
    }

    /// The largest payload the connected server takes (1 MiB until a server said).
    public var maxPayload: Int {
        state.withLockedValue { $0.maxPayload }
    }

    /// Subscribes to a subject (wildcards allowed); the messages arrive in ``messages``.
    /// - Returns: The subscription's id, for ``unsubscribe(_:)``; nil for a subject the protocol does not allow.
    public func subscribe(to subject: String) -> Int? {
        guard NATSSubject.isValid(subject) else { return nil }
        let (sid, channel) = state.withLockedValue { state -> (Int, Channel?) in
            let sid = state.nextSID
            state.nextSID += 1
            state.subscriptions[sid] = subject
            guard state.channel != nil else { return (sid, nil) }  // made when a connection is ready
            NATSCommand.writeSubscribe(subject: subject, sid: sid, into: &state.pending)
            return (sid, state.scheduleFlush())
        }
        if let channel { channel.eventLoop.execute { self.flush(channel) } }
        return sid
    }

    /// Ends a subscription.
    public func unsubscribe(_ sid: Int) {
        let channel = state.withLockedValue { state -> Channel? in
            guard state.subscriptions.removeValue(forKey: sid) != nil, state.channel != nil else { return nil }
            NATSCommand.writeUnsubscribe(sid: sid, into: &state.pending)
            return state.scheduleFlush()
        }
        if let channel { channel.eventLoop.execute { self.flush(channel) } }
    }

    /// Writes what waits now, and returns once it is written to the socket, at once without a connection,
    /// or after `timeout` (a server that stopped reading): for a last word before stopping.
    public func flush(timeout: Duration = .seconds(2)) async {
        let taken = state.withLockedValue { state -> (Channel, ByteBuffer)? in
            guard let channel = state.channel else { return nil }
            defer { state.pending = ByteBuffer() }
            return (channel, state.pending)
        }
        guard let (channel, bytes) = taken else { return }
        let written = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(bytes, promise: written)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await written.futureResult.get() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Writes what waits, if the channel is still the connection and takes writes (on its event loop).
    private func flush(_ channel: Channel) {
        let bytes = state.withLockedValue { state -> ByteBuffer? in
            guard state.isCurrent(channel) else { return nil }
            state.flushScheduled = false
            guard channel.isWritable, state.pending.readableBytes > 0 else { return nil }
            defer { state.pending = ByteBuffer() }
            return state.pending
        }
        if let bytes { channel.writeAndFlush(bytes, promise: nil) }
    }
}

extension NATSClient {
    /// What the client's callers and its connections share, under one lock.
    struct Shared {
        /// The connection, once its handshake is done.
        var channel: Channel?
        var lastCloseReason: NATSProtocolError?
        /// Commands not yet handed to the channel.
        var pending = ByteBuffer()
        var flushScheduled = false
        var subscriptions: [Int: String] = [:]
        var nextSID = 1
        /// Every server known, in the order they are tried.
        var servers: [NATSServerAddress]
        var nextServerIndex = 0
        var maxPayload = 1_048_576
        var statistics = Statistics()
        /// How servers learnt from `INFO` are reached: as the first configured server (its credentials and TLS).
        let template: NATSServerAddress

        init(servers: [NATSServerAddress], template: NATSServerAddress) {
            self.servers = servers
            self.template = template
        }

        func isCurrent(_ channel: Channel) -> Bool {
            self.channel.map { ObjectIdentifier($0) == ObjectIdentifier(channel) } ?? false
        }

        /// The connection to flush at the end of its loop's turn, if one is not already due.
        mutating func scheduleFlush() -> Channel? {
            guard let channel, !flushScheduled else { return nil }
            flushScheduled = true
            return channel
        }

        mutating func nextServer() -> NATSServerAddress {
            defer { nextServerIndex += 1 }
            return servers[nextServerIndex % servers.count]
        }

        /// Adds the servers an `INFO` announces, reached as ``template``.
        mutating func learn(_ info: NATSServerInfo) {
            maxPayload = info.maxPayload
            for url in info.connectURLs {
                guard let address = try? NATSServerAddress(url: url).reached(like: template) else { continue }
                if !servers.contains(where: { $0.host == address.host && $0.port == address.port }) { servers.append(address) }
            }
        }
    }
}
