#if canImport(Network)
    import Logging
    import Network
    import WSClient

    /// Compiled on Apple platforms only: this repository's CI runs on Linux, where it is not built, so it is
    /// kept to one call to review by eye (API of iOS 12 / macOS 10.14 and later).
    ///
    /// The socket runs on Network.framework (swift-websocket's client on a `NIOTSEventLoopGroup`), not on
    /// POSIX sockets, which do not bring up cellular, VPN on demand or the system's proxies (Apple's
    /// TN3151). `wss` uses the system's TLS and trust store.
    extension NIOSocketTransport {
        /// Opens the socket on Network.framework and runs `handler` until it closes.
        static func open(
            url: String, configuration: WebSocketClientConfiguration, logger: Logger,
            handler: @escaping WebSocketDataHandler<WebSocketClient.Context>
        ) async throws {
            _ = try await WebSocketClient.connect(
                url: url, configuration: configuration, transportServicesTLSOptions: .options(NWProtocolTLS.Options()),
                logger: logger, handler: handler
            )
        }
    }
#endif
