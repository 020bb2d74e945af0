#if canImport(Network)
    import Foundation
    import Logging
    import NIOConcurrencyHelpers

    /// Compiled on Apple platforms only: this repository's CI runs on Linux, where it is not built, so it is
    /// kept thin enough to review by eye, on `URLSessionWebSocketTask` (iOS 13 / macOS 10.15 API, checked
    /// against the iOS 17.0 SDK's Foundation interface) and `Task.sleep(for:)` (iOS 16). What it decides is
    /// in types tested on Linux: when a missing pong ends the socket (``PingRound``); what the frames mean
    /// (the client, the same over every transport).
    ///
    /// The socket runs on URLSession's WebSocket task, the system's stack: it brings up cellular, follows
    /// VPN on demand and the system's proxies, and `wss` uses the system's TLS and trust store; an app that
    /// links the SDK links no SwiftNIO for it (docs/INTEGRATION.md gives the sizes).
    struct URLSessionSocketTransport: SocketTransport {
        func connect(
            url: String, pingInterval: Duration, logger: Logger,
            _ body: @escaping @Sendable (SocketReader, SocketWriter) async throws -> Void
        ) async throws {
            guard let address = URL(string: url) else { throw URLError(.badURL) }
            let socket = Socket(URLSession.shared.webSocketTask(with: address))
            socket.task.maximumMessageSize = Self.maxFrameSize
            socket.task.resume()
            try await withTaskCancellationHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // Whichever ends first ends the socket: the body (the server closed, or the client did) or
                    // the pings (a pong went missing). Cancelling the task fails a `receive()` still waiting.
                    defer { socket.task.cancel() }
                    group.addTask { try await socket.pingUntilAPongIsMissing(every: pingInterval) }
                    group.addTask {
                        let reader = SocketReader { try await socket.next() }
                        let writer = SocketWriter(
                            send: { try await socket.task.send(.string($0)) },
                            close: { goingAway, reason in
                                socket.task.cancel(with: goingAway ? .goingAway : .normalClosure, reason: Data(reason.utf8))
                            }
                        )
                        try await body(reader, writer)
                    }
                    _ = try await group.next()
                    group.cancelAll()
                }
            } onCancel: {
                socket.task.cancel()
            }
        }
    }

    /// One WebSocket task and its pings. `URLSessionTask`'s methods may be called from any thread.
    private final class Socket: @unchecked Sendable {
        let task: URLSessionWebSocketTask
        private let pings = NIOLockedValueBox(PingRound())

        init(_ task: URLSessionWebSocketTask) {
            self.task = task
        }

        /// The server's next text frame; nil once the server closed the socket.
        func next() async throws -> String? {
            do {
                while true {
                    switch try await task.receive() {
                    case .string(let text): return text
                    case .data: continue  // the server sends text frames only
                    @unknown default: continue
                    }
                }
            } catch {
                if task.closeCode != .invalid { return nil }  // a close frame came: the socket's end, not a failure
                throw error
            }
        }

        /// Pings every `interval`; throws once a ping's pong has not come by the next one.
        func pingUntilAPongIsMissing(every interval: Duration) async throws {
            while true {
                try await Task.sleep(for: interval)
                guard pings.withLockedValue({ $0.due() }) else { throw URLError(.timedOut) }
                let pings = pings
                task.sendPing { error in
                    if error == nil { pings.withLockedValue { $0.ponged() } }
                }
            }
        }
    }
#endif
