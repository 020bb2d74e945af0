import NIOCore
import NIOEmbedded
import Testing

@testable import TypewireServer

@Suite("QuiesceLatch: a shutdown notice waits for the connection's pipeline to be complete")
struct QuiesceLatchTests {
    /// Counts the shutdown notices that reach it.
    final class NoticeCounter: ChannelInboundHandler {
        typealias InboundIn = NIOAny
        var notices = 0

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ChannelShouldQuiesceEvent { notices += 1 }
            context.fireUserInboundEventTriggered(event)
        }
    }

    @Test func aNoticeBeforeTheHandlersAreAddedReachesThemOnceTheLatchIsRemoved() throws {
        let channel = EmbeddedChannel()
        let latch = QuiesceLatch()
        try channel.pipeline.syncOperations.addHandler(latch)
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        let counter = NoticeCounter()  // added after the notice, as the socket's handler is
        try channel.pipeline.syncOperations.addHandler(counter)
        #expect(counter.notices == 0)
        channel.pipeline.syncOperations.removeHandler(latch, promise: nil)
        #expect(counter.notices == 1)
    }

    @Test func withoutANoticeRemovingTheLatchSendsNone() throws {
        let channel = EmbeddedChannel()
        let latch = QuiesceLatch()
        let counter = NoticeCounter()
        try channel.pipeline.syncOperations.addHandlers([latch, counter])
        channel.pipeline.syncOperations.removeHandler(latch, promise: nil)
        #expect(counter.notices == 0)
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(counter.notices == 1, "a notice after the latch went passes straight through")
    }
}
