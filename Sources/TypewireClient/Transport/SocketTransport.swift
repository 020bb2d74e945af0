import Logging
import WSClient

/// How the client reaches the server: a socket of text frames, whatever network stack carries it. The
/// client's one view of the network, and the SDK's own type: ``NIOSocketTransport`` is swift-websocket's
/// client on NIO's POSIX sockets (on Apple platforms, on Network.framework); a transport on
/// `URLSessionWebSocketTask` can take its place without a change above it. Everything above it (the
/// protocol, the reconnects, the machine) is the same for every transport.
protocol SocketTransport: Sendable {
    /// Opens a socket to `url` and runs `body` on it until `body` returns or the socket closes; throws if
    /// the socket cannot be opened (the client waits out its backoff and tries again).
    /// - Parameters:
    ///   - pingInterval: How often the transport pings the server; a pong missing at the next ping ends the
    ///     socket (a socket that died without a word is not taken for open for long).
    ///   - body: Reads the server's frames from the reader and writes through the writer.
    func connect(
        url: String, pingInterval: Duration, logger: Logger,
        _ body: @escaping @Sendable (SocketReader, SocketWriter) async throws -> Void
    ) async throws
}

/// The server's text frames on one socket, in order.
struct SocketReader {
    private let read: () async throws -> String?

    /// A reader that takes each frame from `read` (nil: the socket closed).
    init(_ read: @escaping () async throws -> String?) {
        self.read = read
    }

    /// The next text frame; nil once the socket closed.
    func next() async throws -> String? {
        try await read()
    }
}

/// What the client sends on one socket.
struct SocketWriter: Sendable {
    /// Sends a text frame.
    let send: @Sendable (String) async throws -> Void
    /// Sends the close frame: 1001 (going away) if `goingAway`, else 1000, saying `reason`.
    let close: @Sendable (_ goingAway: Bool, _ reason: String) async throws -> Void
}

/// swift-websocket's client: NIO's POSIX sockets, or Network.framework on Apple platforms
/// (`SocketTransport+Network.swift` opens the connection there).
struct NIOSocketTransport: SocketTransport {
    /// The largest frame read from the server.
    static let maxFrameSize = 1 << 20

    func connect(
        url: String, pingInterval: Duration, logger: Logger,
        _ body: @escaping @Sendable (SocketReader, SocketWriter) async throws -> Void
    ) async throws {
        var configuration = WebSocketClientConfiguration(maxFrameSize: Self.maxFrameSize)
        configuration.autoPing = .enabled(timePeriod: pingInterval)
        try await Self.open(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: Self.maxFrameSize).makeAsyncIterator()
            let reader = SocketReader {
                while let message = try await messages.next() {
                    if case .text(let text) = message { return text }
                }
                return nil
            }
            let writer = SocketWriter(
                send: { try await outbound.write(.text($0)) },
                close: { goingAway, reason in try await outbound.close(goingAway ? .goingAway : .normalClosure, reason: reason) }
            )
            try await body(reader, writer)
        }
    }
}

#if !canImport(Network)
    extension NIOSocketTransport {
        /// Opens the socket on NIO's POSIX sockets and runs `handler` until it closes.
        static func open(
            url: String, configuration: WebSocketClientConfiguration, logger: Logger,
            handler: @escaping WebSocketDataHandler<WebSocketClient.Context>
        ) async throws {
            _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger, handler: handler)
        }
    }
#endif
