import Synchronization
import Testing
@testable import TypewireServer

@Suite("SocketLane: a socket's work in order, with a task only while busy", .timeLimit(.minutes(1)))
struct SocketLaneTests {
    @Test func itemsRunInOrderAndAPilingSocketIsPausedThenResumed() async {
        let done = Mutex<[Int]>([])
        let resumed = Mutex(0)
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let lane = SocketLane<Int>(
            work: { item in
                if item == 0 { for await _ in gate { break } }  // the first item waits: the rest pile up
                await Task.yield()
                done.withLock { $0.append(item) }
                if item == 99 { finish.yield() }
            },
            resume: { resumed.withLock { $0 += 1 } }
        )
        let pauses = (0..<100).filter { lane.submit($0) }
        // Once, when 64 items wait: the 64th or 65th submitted, as the first may already be running.
        let pauseAt = SocketLane<Int>.pauseAt
        #expect(pauses.count == 1 && [pauseAt - 1, pauseAt].contains(pauses[0]), "reading paused at \(pauses)")
        open.yield()
        for await _ in finished { break }
        #expect(done.withLock { $0 } == Array(0..<100))
        #expect(resumed.withLock { $0 } == 1, "reading resumes once the lane caught up")
    }
}
