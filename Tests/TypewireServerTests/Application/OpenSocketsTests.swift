import NIOCore
import NIOEmbedded
import Testing

@testable import TypewireServer

@Suite("OpenSockets: a shutdown waits for every socket, with no task per socket", .timeLimit(.minutes(1)))
struct OpenSocketsTests {
    @Test func theWaitEndsWhenTheLastSocketCloses() async throws {
        let sockets = OpenSockets()
        let waiter = try closingTwoSockets(counted: sockets) { Task { await sockets.allClosed() } }
        await waiter.value  // hangs (and the time limit fails the test) if the last close did not end the wait
        #expect(sockets.count == 0)
        await sockets.allClosed()  // none open: returns at once
    }

    /// Opens two sockets, starts the wait, then closes them one after the other, all on one thread (an
    /// embedded loop belongs to the thread that uses it).
    private func closingTwoSockets(counted sockets: OpenSockets, wait: () -> Task<Void, Never>) throws -> Task<Void, Never> {
        let loop = EmbeddedEventLoop()
        let first = EmbeddedChannel(loop: loop)
        let second = EmbeddedChannel(loop: loop)
        sockets.opened(first)
        sockets.opened(second)
        #expect(sockets.count == 2)
        let waiter = wait()
        first.close(promise: nil)
        loop.run()
        #expect(sockets.count == 1)
        second.close(promise: nil)
        loop.run()
        return waiter
    }
}
