import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import TypewireServer

/// An actor on one event loop, as the hub is.
private actor LoopOwner: EventLoopActor {
    nonisolated let eventLoop: any EventLoop
    nonisolated let taskExecutor: EventLoopTaskExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }

    init() {
        eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        taskExecutor = EventLoopTaskExecutor(eventLoop)
    }
}

@Suite("SocketLane: a socket's work in order on its owner's loop, with a task only while busy", .timeLimit(.minutes(1)))
struct SocketLaneTests {
    @Test func itemsRunInOrderAndAPilingSocketIsPausedThenResumed() async {
        let done = NIOLockedValueBox<[Int]>([])
        let resumed = NIOLockedValueBox(0)
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let offLoop = NIOLockedValueBox(0)
        let lane = SocketLane<Int, LoopOwner>(
            owner: LoopOwner(),
            work: { item, owner in
                if !owner.eventLoop.inEventLoop { offLoop.withLockedValue { $0 += 1 } }
                if item == 0 { for await _ in gate { break } }  // the first item waits: the rest pile up
                await Task.yield()
                done.withLockedValue { $0.append(item) }
                if item == 99 { finish.yield() }
            },
            resume: { resumed.withLockedValue { $0 += 1 } }
        )
        let pauses = (0..<100).filter { lane.submit($0) }
        // Once, when 64 items wait: the 64th or 65th submitted, as the first may already be running.
        let pauseAt = SocketLane<Int, LoopOwner>.pauseAt
        #expect(pauses.count == 1 && [pauseAt - 1, pauseAt].contains(pauses[0]), "reading paused at \(pauses)")
        open.yield()
        for await _ in finished { break }
        #expect(done.withLockedValue { $0 } == Array(0..<100))
        #expect(resumed.withLockedValue { $0 } == 1, "reading resumes once the lane caught up")
        #expect(offLoop.withLockedValue { $0 } == 0, "the work runs on its owner's event loop")
    }

    @Test func anIdleLaneRunsAnItemAtOnceOnItsLoopAndABusyOneQueuesItInOrder() async throws {
        let done = NIOLockedValueBox<[String]>([])
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let (finished, finish) = AsyncStream.makeStream(of: Void.self)
        let owner = LoopOwner()
        let lane = SocketLane<String, LoopOwner>(
            owner: owner,
            work: { item, _ in
                if item == "slow" { for await _ in gate { break } }
                done.withLockedValue { $0.append("queued \(item)") }
                if item == "last" { finish.yield() }
            },
            resume: {}
        )
        let atOnce: @Sendable (String, isolated LoopOwner) -> Bool = { item, owner in
            guard item != "needs a wait" else { return false }
            done.withLockedValue { $0.append("at once \(item)") }
            return true
        }
        // Idle, on the loop: run before submit returns. An item `now` cannot do is queued (and, the lane busy,
        // so is everything after it, in order).
        let seenRightAfter = try await owner.eventLoop.submit {
            _ = lane.submit("first", tryingNow: atOnce)
            let seen = done.withLockedValue { $0 }
            _ = lane.submit("needs a wait", tryingNow: atOnce)
            _ = lane.submit("slow", tryingNow: atOnce)
            _ = lane.submit("last", tryingNow: atOnce)
            return seen
        }.get()
        #expect(seenRightAfter == ["at once first"])
        open.yield()
        for await _ in finished { break }
        #expect(done.withLockedValue { $0 } == ["at once first", "queued needs a wait", "queued slow", "queued last"])
        // Idle again, but off the loop: queued.
        let (finishedAgain, finishAgain) = AsyncStream.makeStream(of: Void.self)
        let lane2 = SocketLane<String, LoopOwner>(
            owner: owner,
            work: { item, _ in
                done.withLockedValue { $0.append("queued \(item)") }
                finishAgain.yield()
            }, resume: {})
        _ = lane2.submit("off the loop", tryingNow: atOnce)
        for await _ in finishedAgain { break }
        #expect(done.withLockedValue { $0 }.last == "queued off the loop")
    }
}
