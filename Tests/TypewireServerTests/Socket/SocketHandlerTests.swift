import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
import TypewireCore
import TypewireTesting

@testable import TypewireServer

/// The socket handler on a test channel whose loop's time is the test's: the hello timeout, the pings and the
/// token's expiry fire when the test advances it, and the hub is a real one on an in-memory store.
@Suite("SocketHandler: a socket's life on a test channel", .timeLimit(.minutes(1)))
struct SocketHandlerTests {
    @Test func aValidHelloIsWelcomedAndFramesSentBehindItAreHandledAfterInOrder() async throws {
        try await TestSocketChannel.run { socket in
            try await socket.sendText(#"{"type":"hello","token":"\#(try await socket.token("alice"))"}"#)
            try await socket.sendText(#"{"type":"subscribe","conversation":"direct-alice-bob"}"#)
            let frames = try await socket.texts(count: 2)
            #expect(frames[0].contains(#""type":"welcome""#), "\(frames)")
            #expect(frames[1].contains(#""type":"subscribed""#) && frames[1].contains("direct-alice-bob"), "\(frames)")
            #expect(socket.channel.isActive)
        }
    }

    @Test func anInvalidTokenIsAnsweredThenClosedWith1008() async throws {
        try await TestSocketChannel.run { socket in
            try await socket.sendText(#"{"type":"hello","token":"not-a-token"}"#)
            let frames = try await socket.frames(until: { $0.opcode == .connectionClose })
            #expect(frames.first.map { String(buffer: $0.data) }?.contains("unauthorized") == true)
            #expect(frames.last.map(TestSocketChannel.closeCode) == .policyViolation)
        }
    }

    @Test func noHelloWithinTheHelloTimeoutCloses1008WhenTheLoopsTimeSaysSo() async throws {
        try await TestSocketChannel.run { socket in
            await socket.loop.advanceTime(by: .milliseconds(4_999))
            #expect(try await socket.written().isEmpty)
            await socket.loop.advanceTime(by: .milliseconds(1))
            let frames = try await socket.written()
            #expect(frames.count == 1 && frames.first.map(TestSocketChannel.closeCode) == .policyViolation)
            #expect(
                frames.first.map { String(buffer: $0.data.getSlice(at: $0.data.readerIndex + 2, length: $0.data.readableBytes - 2)!) }
                    == "no valid hello within 5000 ms")
        }
    }

    @Test func aPeerThatDoesNotAnswerAPingIsDroppedAtTheNextAndOneThatAnswersIsNot() async throws {
        try await TestSocketChannel.run(configure: { $0.sockets.helloTimeout = .seconds(600) }) { socket in
            await socket.loop.advanceTime(by: .seconds(30))
            #expect(try await socket.written().map(\.opcode) == [.ping])
            try await socket.send(.pong, ByteBuffer())
            await socket.loop.advanceTime(by: .seconds(30))
            #expect(try await socket.written().map(\.opcode) == [.ping], "answered: pinged again")
            await socket.loop.advanceTime(by: .seconds(30))
            let closing = try await socket.written()
            #expect(closing.map(\.opcode) == [.connectionClose] && closing.first.map(TestSocketChannel.closeCode) == .goingAway)
            #expect(try await socket.isClosed(), "the connection is closed")
        }
    }

    @Test func aPingIsAnsweredWithItsPayloadAndAnUnmaskedFrameCloses1002() async throws {
        try await TestSocketChannel.run { socket in
            try await socket.send(.ping, ByteBuffer(string: "are you there"))
            let pong = try await socket.written()
            #expect(pong.map(\.opcode) == [.pong] && pong.first.map { String(buffer: $0.data) } == "are you there")
            try await socket.send(.text, ByteBuffer(string: "{}"), masked: false)
            let closing = try await socket.written()
            #expect(closing.first.map(TestSocketChannel.closeCode) == .protocolError)
            #expect(try await socket.isClosed(), "the connection is closed")
        }
    }

    @Test func aPeersCloseIsAnsweredWithItsCodeAndTheConnectionCloses() async throws {
        try await TestSocketChannel.run { socket in
            var payload = ByteBuffer()
            payload.write(webSocketErrorCode: .normalClosure)
            try await socket.send(.connectionClose, payload)
            let answer = try await socket.written()
            #expect(answer.first.map(TestSocketChannel.closeCode) == .normalClosure)
            #expect(try await socket.isClosed(), "the connection is closed")
        }
    }

    @Test func fiveFramesWithoutAHelloAreAnsweredThenClosed() async throws {
        try await TestSocketChannel.run { socket in
            for _ in 0..<5 { try await socket.sendText(#"{"type":"subscribe","conversation":"c"}"#) }
            let frames = try await socket.written()
            #expect(frames.map(\.opcode) == [.text, .text, .text, .text, .text, .connectionClose])
            #expect(frames.last.map(TestSocketChannel.closeCode) == .policyViolation)
        }
    }

    @Test func theTokensExpiryClosesAWelcomedSocket() async throws {
        try await TestSocketChannel.run { socket in
            try await socket.sendText(#"{"type":"hello","token":"\#(try await socket.token("alice", lifetime: .seconds(30)))"}"#)
            try await socket.sendText(#"{"type":"subscribe","conversation":"direct-alice-bob"}"#)
            // `subscribed` comes once the socket is open (frames behind the hello wait for it): the expiry is set.
            _ = try await socket.texts(count: 2)
            await socket.loop.advanceTime(by: .seconds(31))
            let frames = try await socket.written()
            #expect(frames.first.map { String(buffer: $0.data) }?.contains("The token expired") == true, "\(frames)")
            #expect(frames.last.map(TestSocketChannel.closeCode) == .policyViolation)
        }
    }

    @Test func aRefreshedTokenKeepsTheSocketPastTheFirstTokensExpiryThenItsOwnCloses() async throws {
        try await TestSocketChannel.run(configure: { $0.sockets.pingInterval = .seconds(600) }) { socket in
            try await socket.sendText(#"{"type":"hello","token":"\#(try await socket.token("alice", lifetime: .seconds(30)))"}"#)
            _ = try await socket.texts(count: 1)
            try await socket.sendText(#"{"type":"refresh","token":"\#(try await socket.token("alice", lifetime: .seconds(120)))"}"#)
            let refreshed = try await socket.texts(count: 1)
            #expect(refreshed.first?.contains(#""type":"refreshed""#) == true, "\(refreshed)")
            await socket.loop.advanceTime(by: .seconds(31))
            #expect(try await socket.written().isEmpty, "the first token's expiry closes nothing")
            #expect(socket.channel.isActive)
            await socket.loop.advanceTime(by: .seconds(90))
            let frames = try await socket.written()
            #expect(frames.first.map { String(buffer: $0.data) }?.contains("The token expired") == true, "\(frames)")
            #expect(frames.last.map(TestSocketChannel.closeCode) == .policyViolation)
        }
    }

    @Test func anInvalidRefreshIsRefusedAndTheSocketKeptButAnotherUsersTokenCloses1008() async throws {
        try await TestSocketChannel.run { socket in
            try await socket.sendText(#"{"type":"hello","token":"\#(try await socket.token("alice"))"}"#)
            _ = try await socket.texts(count: 1)
            try await socket.sendText(#"{"type":"refresh","token":"not-a-token"}"#)
            let refused = try await socket.texts(count: 1)
            #expect(
                refused.first?.contains(#""code":"unauthorized""#) == true && refused.first?.contains("keeps its current token") == true)
            #expect(socket.channel.isActive)
            try await socket.sendText(#"{"type":"refresh","token":"\#(try await socket.token("bob"))"}"#)
            let frames = try await socket.frames(until: { $0.opcode == .connectionClose })
            #expect(frames.first.map { String(buffer: $0.data) }?.contains("another user") == true, "\(frames)")
            #expect(frames.last.map(TestSocketChannel.closeCode) == .policyViolation)
        }
    }

    @Test func theServersShutdownClosesASocketStillSayingHelloWithGoingAway() async throws {
        try await TestSocketChannel.run { socket in
            socket.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            let frames = try await socket.written()
            #expect(frames.first.map(TestSocketChannel.closeCode) == .goingAway)
        }
    }
}

/// A ``SocketHandler`` on a `NIOAsyncTestingChannel`, its shared context on a real hub.
struct TestSocketChannel {
    let channel: NIOAsyncTestingChannel
    let authority: TokenAuthority
    var loop: NIOAsyncTestingEventLoop { channel.testingEventLoop }

    /// Runs the body with a new socket, then closes its store.
    static func run(
        configure change: (inout ServerConfiguration) -> Void = { _ in }, _ body: (TestSocketChannel) async throws -> Void
    ) async throws {
        let store = try await SQLiteChatStore.open(path: ":memory:")
        do {
            try await DemoSeed.seed(into: store)
            try await body(make(store: store, change))
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    private static func make(store: SQLiteChatStore, _ change: (inout ServerConfiguration) -> Void) async throws -> TestSocketChannel {
        var configuration = ServerConfiguration(jwtSecret: TestServer.secret)
        change(&configuration)
        let hub = Hub(store: store, configuration: configuration)
        let authority = try await TokenAuthority(secret: TestServer.secret)
        let shared = SocketContext(
            hub: hub, authority: authority, configuration: configuration, logger: Logger(label: "test"), writers: LoopWriters(),
            timers: TimerQueues(), refusals: AddressRefusals(burst: 0, countsLocalAddresses: false, now: hub.now, metrics: hub.metrics),
            pendingHandshakes: PendingHandshakes(limit: 0, countsLocalAddresses: false, metrics: hub.metrics)
        )
        let channel = NIOAsyncTestingChannel()
        try await channel.testingEventLoop.executeInContext {
            try channel.pipeline.syncOperations.addHandler(SocketHandler(shared: shared))
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1))
        return TestSocketChannel(channel: channel, authority: authority)
    }

    func token(_ user: String, lifetime: Duration = .seconds(3_600)) async throws -> String {
        try await authority.sign(Identity(userID: user, name: user.capitalized), lifetime: lifetime)
    }

    func sendText(_ text: String) async throws {
        try await send(.text, ByteBuffer(string: text))
    }

    /// Writes a final frame, masked as a client's unless `masked` is false.
    func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer, masked: Bool = true) async throws {
        let key: WebSocketMaskingKey? = masked ? .random() : nil
        var payload = data
        if let key { payload.webSocketMask(key) }
        try await channel.writeInbound(WebSocketFrame(fin: true, opcode: opcode, maskKey: key, data: payload))
        await loop.run()
    }

    /// The frames written so far and not read yet.
    func written() async throws -> [WebSocketFrame] {
        await loop.run()
        var bytes = ByteBuffer()
        while var buffer = try await channel.readOutbound(as: ByteBuffer.self) { bytes.writeBuffer(&buffer) }
        return try Self.decode(bytes)
    }

    /// Whether the channel is closed once the loop ran what it has (a close never waited for: a test that
    /// breaks it fails rather than hangs).
    func isClosed() async throws -> Bool {
        await loop.run()
        return !channel.isActive
    }

    /// Frames as the hub writes them (from its own loop): waited for up to 10 s, the loop run meanwhile.
    func frames(until done: ([WebSocketFrame]) -> Bool) async throws -> [WebSocketFrame] {
        var frames: [WebSocketFrame] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            frames += try await written()
            if done(frames) { return frames }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("no such frames within 10 s: \(frames)")
        return frames
    }

    func frames(until last: @escaping (WebSocketFrame) -> Bool) async throws -> [WebSocketFrame] {
        try await frames(until: { (frames: [WebSocketFrame]) in frames.last.map(last) ?? false })
    }

    /// The next `count` text frames' texts.
    func texts(count: Int) async throws -> [String] {
        try await frames(until: { (frames: [WebSocketFrame]) in frames.count(where: { $0.opcode == .text }) >= count })
            .filter { $0.opcode == .text }.map { String(buffer: $0.data) }
    }

    static func closeCode(_ frame: WebSocketFrame) -> WebSocketErrorCode? {
        var data = frame.data
        return data.readWebSocketErrorCode()
    }

    /// Server frames with NIOWebSocket's own decoder.
    private static func decode(_ bytes: ByteBuffer) throws -> [WebSocketFrame] {
        guard bytes.readableBytes > 0 else { return [] }
        let decoder = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        try decoder.writeInbound(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try decoder.readInbound(as: WebSocketFrame.self) { frames.append(frame) }
        return frames
    }
}
