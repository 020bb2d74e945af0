import NIOCore
import NIOEmbedded
import Testing

@testable import TypewireServer

@Suite("RequestHeadGuard: a new connection is bounded in time before its first head")
struct RequestHeadGuardTests {
    /// A connection set up but never registered (accepted as the listener closed) is closed, so its client
    /// retries at once instead of waiting for the head timeout; one registered late while the server listens
    /// (a loaded machine) is waited for: closing it would reset the request its client already sent.
    @Test func aConnectionNotActiveYetWaitsWhileTheServerListensAndClosesOnceItDoesNot() throws {
        let channel = EmbeddedChannel()
        var closed = false
        channel.closeFuture.assumeIsolated().whenComplete { _ in closed = true }
        let listening = EmbeddedChannel()
        let listener = ListenerState()
        listener.follow(listening)
        try channel.pipeline.syncOperations.addHandler(headGuard(on: channel, listener: listener))
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(!closed, "a connection still waiting for its registration was closed while the server listens")
        try listening.close().wait()
        listening.embeddedEventLoop.run()  // its close future completes on its loop
        channel.embeddedEventLoop.advanceTime(by: RequestHeadGuard.activationCheck)
        #expect(closed, "the never-active connection is still open a check after the listener closed")
    }

    @Test func aConnectionThatBecomesActiveWaitsForItsHeadUntilTheHeadTimeout() throws {
        let channel = EmbeddedChannel()
        var closed = false
        channel.closeFuture.assumeIsolated().whenComplete { _ in closed = true }
        try channel.pipeline.syncOperations.addHandler(headGuard(on: channel))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(!closed, "an active connection was closed before its head timeout")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(closed, "a connection without a complete head outlived the head timeout")
    }

    @Test func itTellsOnceHowTheFirstHeadEnded() throws {
        func ending(after steps: (EmbeddedChannel) throws -> Void) throws -> [RequestHeadGuard.Ending] {
            let channel = EmbeddedChannel()
            var endings: [RequestHeadGuard.Ending] = []
            try channel.pipeline.syncOperations.addHandler(headGuard(on: channel) { endings.append($0) })
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            try steps(channel)
            _ = try? channel.finish()
            return endings
        }
        #expect(try ending { try $0.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: x\r\n\r\n")) } == [.complete])
        #expect(
            try ending { channel in
                try channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\n"))
                channel.embeddedEventLoop.advanceTime(by: .seconds(10))
            } == [.timedOutPartway], "part of a head, then the timeout")
        #expect(try ending { $0.embeddedEventLoop.advanceTime(by: .seconds(10)) } == [.closed], "nothing sent: not a partway head")
        #expect(try ending { _ in } == [.closed], "the client went away")
    }

    /// A guard of 1 KiB and 10 s, its timers on the channel's loop.
    private func headGuard(
        on channel: EmbeddedChannel, listener: ListenerState = ListenerState(),
        ended: @escaping (RequestHeadGuard.Ending) -> Void = { _ in }
    ) -> RequestHeadGuard {
        RequestHeadGuard(
            maxBytes: 1_024, timeout: .seconds(10), listener: listener, timers: TimerQueue(eventLoop: channel.eventLoop), ended: ended)
    }
}
