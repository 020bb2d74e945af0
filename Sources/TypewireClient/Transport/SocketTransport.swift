import Logging
import WSClient

/// How the client's socket reaches the server: the one place that picks a network stack. On Apple
/// platforms it is Network.framework (`SocketTransport+Network.swift`), elsewhere NIO's POSIX sockets
/// (below). Everything above it (the protocol, the reconnects, the pings) is the same on both.
enum SocketTransport {
    /// Runs on the open socket until it closes.
    typealias Handler = WebSocketDataHandler<WebSocketClient.Context>
}

#if !canImport(Network)
    extension SocketTransport {
        /// Connects to `url` on NIO's POSIX sockets and runs `handler` until the socket closes.
        static func connect(
            url: String, configuration: WebSocketClientConfiguration, logger: Logger, handler: @escaping Handler
        ) async throws {
            _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger, handler: handler)
        }
    }
#endif
