import Foundation
import Hummingbird
import Logging
import NIOWebSocket
import Testing
import TypewireCore
import TypewireTesting
import WSClient

/// A real WebSocket client for tests: sends frames, collects what the server sends, and waits (with a
/// deadline) for the frame a test expects.
final class TestSocket: Sendable {
    private let outgoing: AsyncStream<WebSocketOutboundWriter.OutboundFrame>.Continuation
    private let inbox: Inbox
    private let task: Task<Void, any Error>

    private init(outgoing: AsyncStream<WebSocketOutboundWriter.OutboundFrame>.Continuation, task: Task<Void, any Error>, inbox: Inbox) {
        self.outgoing = outgoing
        self.task = task
        self.inbox = inbox
    }

    /// Connects and, if a token is given, says hello and waits for `welcome`.
    /// - Parameter origin: An `Origin` header, as a browser sends.
    static func connect(port: Int, token: String?, origin: String? = nil) async throws -> TestSocket {
        let (outgoingFrames, outgoing) = AsyncStream.makeStream(of: WebSocketOutboundWriter.OutboundFrame.self)
        let inbox = Inbox()
        let task = Task {
            var logger = Logger(label: "typewire.test.client")
            logger.logLevel = .critical
            // Frames up to 1 MiB, as TypewireClient reads: an error frame echoes part of a bad frame.
            var configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20)
            if let origin { configuration.additionalHeaders[.origin] = origin }
            let closeFrame: WebSocketCloseFrame?
            do {
                closeFrame = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)/v1/socket", configuration: configuration, logger: logger
                ) { inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await frame in outgoingFrames { try await outbound.write(frame) }
                            try await outbound.close(await inbox.leavingCode, reason: nil)
                        }
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            if case .text(let text) = message { await inbox.append(text) }
                        }
                        group.cancelAll()
                    }
                }
            } catch {
                await inbox.markClosed(code: nil)  // refused or dropped
                throw error
            }
            await inbox.markClosed(code: closeFrame?.closeCode)
        }
        let socket = TestSocket(outgoing: outgoing, task: task, inbox: inbox)
        if let token {
            socket.send(.hello(.init(token: token)))
            _ = try await socket.next { if case .welcome = $0 { true } else { false } }
        }
        return socket
    }

    /// Sends a frame.
    func send(_ frame: ClientFrame) {
        outgoing.yield(.text(String(decoding: FrameCodec.encode(frame), as: UTF8.self)))
    }

    /// Sends raw text, for bad-input tests.
    func sendRaw(_ text: String) {
        outgoing.yield(.text(text))
    }

    /// Sends bytes as one frame, whether or not they are UTF-8: for bad-input tests.
    /// - Parameters:
    ///   - opcode: The frame's opcode: text by default, `.continuation` for the later parts of a fragmented message.
    ///   - fin: Whether the frame ends its message; false for all but the last fragment.
    func sendRaw(_ bytes: [UInt8], opcode: WebSocketOpcode = .text, fin: Bool = true) {
        outgoing.yield(.custom(WebSocketFrame(fin: fin, opcode: opcode, data: ByteBuffer(bytes: bytes))))
    }

    /// Closes the socket cleanly.
    func close() {
        outgoing.finish()
    }

    /// Closes the socket cleanly with 1001 (going away), as the SDK does when its app goes to the background.
    func goAway() async {
        await inbox.leave(with: .goingAway)
        outgoing.finish()
    }

    /// Drops the connection without a close handshake.
    func kill() {
        task.cancel()
    }

    /// The first not-yet-taken frame that matches, waiting up to `timeout` (a liveness bound for a
    /// loaded 2-core machine: a test that checks that something does not happen passes a short one).
    /// With `since` (a ``received`` count taken before an action), only frames that arrived after it.
    @discardableResult
    func next(
        within timeout: Duration = livenessBound, since: Int = 0, sourceLocation: SourceLocation = #_sourceLocation,
        where matches: @escaping @Sendable (ServerFrame) -> Bool
    ) async throws -> ServerFrame {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let frame = await inbox.take(since: since, where: matches) { return frame }
            try await Task.sleep(for: .milliseconds(5))
        }
        let seen = await inbox.texts
        Issue.record("no matching frame within \(timeout); received: \(seen.suffix(10))", sourceLocation: sourceLocation)
        throw TestSocketError.timedOut
    }

    /// The next `activity` frame of a conversation whose entries satisfy the predicate.
    @discardableResult
    func activity(
        in conversation: String, within timeout: Duration = livenessBound, since: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation, where matches: @escaping @Sendable ([ActivityEntry]) -> Bool
    ) async throws -> ActivityUpdate {
        let frame = try await next(within: timeout, since: since, sourceLocation: sourceLocation) { frame in
            if case .activity(let update) = frame { update.conversation == conversation && matches(update.entries) } else { false }
        }
        guard case .activity(let update) = frame else { throw TestSocketError.timedOut }
        return update
    }

    /// The next `error` frame (after the first `since` frames received).
    func error(within timeout: Duration = livenessBound, since: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> ServerFrame.Failure
    {
        let frame = try await next(within: timeout, since: since, sourceLocation: sourceLocation) {
            if case .error = $0 { true } else { false }
        }
        guard case .error(let failure) = frame else { throw TestSocketError.timedOut }
        return failure
    }

    /// Every text frame received so far, in order, taken or not.
    var received: [String] {
        get async { await inbox.texts }
    }

    /// Whether the server closed the socket.
    var isClosed: Bool {
        get async { await inbox.closed }
    }

    /// Whether the server closed the socket with the going-away code (1001).
    var closedGoingAway: Bool {
        get async { await inbox.closeCode == .goingAway }
    }

    /// The code the server closed the socket with, if it sent one.
    var closeCode: WebSocketErrorCode? {
        get async { await inbox.closeCode }
    }
}

enum TestSocketError: Error {
    case timedOut
}

/// What a test socket received.
private actor Inbox {
    private(set) var texts: [String] = []
    /// Frames not taken yet, each with its place in ``texts``.
    private var pending: [(index: Int, frame: ServerFrame)] = []
    private(set) var closed = false
    private(set) var closeCode: WebSocketErrorCode?
    /// The code the socket's own close frame says.
    private(set) var leavingCode = WebSocketErrorCode.normalClosure

    func leave(with code: WebSocketErrorCode) {
        leavingCode = code
    }

    func append(_ text: String) {
        texts.append(text)
        if let frame = try? FrameCodec.decodeServerFrame(Data(text.utf8)) { pending.append((texts.count - 1, frame)) }
    }

    func markClosed(code: WebSocketErrorCode?) {
        closed = true
        closeCode = code
    }

    func take(since: Int, where matches: (ServerFrame) -> Bool) -> ServerFrame? {
        guard let index = pending.firstIndex(where: { $0.index >= since && matches($0.frame) }) else { return nil }
        return pending.remove(at: index).frame
    }
}
