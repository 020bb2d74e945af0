#if !canImport(Network)
    import Logging
    import WSClient

    /// swift-websocket's client on NIO's POSIX sockets: the transport off Apple platforms (on them,
    /// `URLSessionSocketTransport`, and swift-websocket is not linked). It pings by itself
    /// (`autoPing`): a pong missing at the next ping ends the socket.
    struct NIOSocketTransport: SocketTransport {
        func connect(
            url: String, pingInterval: Duration, logger: Logger,
            _ body: @escaping @Sendable (SocketReader, SocketWriter) async throws -> Void
        ) async throws {
            var configuration = WebSocketClientConfiguration(maxFrameSize: Self.maxFrameSize)
            configuration.autoPing = .enabled(timePeriod: pingInterval)
            _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
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
#endif
