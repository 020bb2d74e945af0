import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A socket that is subscribed and ready, and the loop its handler lives on.
struct ConnectedSocket: Sendable {
    let handler: NIOLoopBound<BenchSocketHandler>
    let channel: any Channel
}

/// Opens benchmark sockets: a raw SwiftNIO client (`ClientBootstrap`, the HTTP upgrade, WebSocket frames),
/// bound to one of several loopback source addresses so that a run can pass the ~28 000 ephemeral ports
/// one address has.
struct BenchConnector: Sendable {
    /// The server's address.
    let host: String
    let port: Int
    /// The port the typing sockets connect to, when not ``port`` (another node of a cluster).
    let typistPort: Int?
    let path: String
    let group: MultiThreadedEventLoopGroup
    let sourceAddresses: Int
    let members: Int
    let tracksExpiry: Bool
    /// Scenario `receipts`: the sockets read what they receive.
    let readsMessages: Bool
    /// The tally of each event loop, by the loop's identity.
    let tallies: [ObjectIdentifier: TallyBox]

    /// The longest a socket may take from connecting to `subscribed`.
    static let handshakeSeconds: Int64 = 30

    private enum Upgrade: Sendable {
        case upgraded(ConnectedSocket, EventLoopFuture<Void>)
        case refused
    }

    /// Connects one socket, says hello with the token, subscribes, and returns once `subscribed` came.
    func connect(_ socket: SocketPlan.Socket, token: String) async throws -> ConnectedSocket {
        let source = try SocketAddress(ipAddress: "127.0.0.\(1 + socket.index % sourceAddresses)", port: 0)
        let port = socket.isTyper ? typistPort ?? self.port : self.port
        let target = try SocketAddress.makeAddressResolvingHost(host, port: port)
        let members = self.members
        let tracksExpiry = self.tracksExpiry
        let readsMessages = self.readsMessages
        let tallies = self.tallies
        let host = self.host
        let path = self.path
        let negotiation = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(to: source)
            .connect(to: target) { channel -> EventLoopFuture<EventLoopFuture<Upgrade>> in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: 1 << 20) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            let ready = channel.eventLoop.makePromise(of: Void.self)
                            let handler = BenchSocketHandler(
                                socket: socket, members: members, token: token, tally: tallies[ObjectIdentifier(channel.eventLoop)]!,
                                ready: ready, tracksExpiry: tracksExpiry, readsMessages: readsMessages,
                                counts: !(socket.isTyper && typistPort != nil)
                            )
                            try channel.pipeline.syncOperations.addHandler(handler)
                            let bound = NIOLoopBound(handler, eventLoop: channel.eventLoop)
                            let timeout = channel.eventLoop.scheduleTask(in: .seconds(Self.handshakeSeconds)) {
                                bound.value.timeOut(after: Self.handshakeSeconds)
                            }
                            ready.futureResult.whenComplete { _ in timeout.cancel() }
                            return Upgrade.upgraded(ConnectedSocket(handler: bound, channel: channel), ready.futureResult)
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "\(host):\(port)")
                    headers.add(name: "Content-Length", value: "0")
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                        upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers),
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(.refused) }
                    )
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: configuration)
                    )
                }
            }
        switch try await negotiation.get() {
        case .upgraded(let connected, let ready):
            connected.channel.eventLoop.execute { connected.handler.value.start() }
            do {
                try await ready.get()
            } catch {
                connected.channel.close(promise: nil)
                throw error
            }
            return connected
        case .refused:
            throw BenchError("The server at \(host):\(port) refused the WebSocket upgrade at \(path).")
        }
    }
}
