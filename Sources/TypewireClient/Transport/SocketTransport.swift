import Logging

/// How the client reaches the server: a socket of text frames, whatever network stack carries it. The
/// client's one view of the network, and the SDK's own type: on Apple platforms URLSession's WebSocket task
/// (`URLSessionSocketTransport`, the system's stack: no SwiftNIO is linked for it), elsewhere
/// swift-websocket's client on NIO's POSIX sockets (``NIOSocketTransport``). Everything above it (the
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

extension SocketTransport {
    /// The largest frame a transport reads from the server.
    static var maxFrameSize: Int { 1 << 20 }
}

/// The platform's transport: URLSession's WebSocket task on Apple platforms, swift-websocket on NIO elsewhere.
func platformSocketTransport() -> any SocketTransport {
    #if canImport(Network)
        URLSessionSocketTransport()
    #else
        NIOSocketTransport()
    #endif
}
