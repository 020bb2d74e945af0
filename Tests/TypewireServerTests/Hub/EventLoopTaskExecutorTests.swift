import NIOCore
import NIOPosix
import Testing

@testable import TypewireServer

/// An actor on one event loop, as a hub shard is.
private actor Owner: EventLoopActor {
    nonisolated let eventLoop: any EventLoop
    nonisolated let taskExecutor: EventLoopTaskExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }

    init(on eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        taskExecutor = EventLoopTaskExecutor(eventLoop)
    }
}

/// A plain `async` function: it runs on the task's preferred executor, or on the global one without.
private func isOnLoop(_ loop: any EventLoop) async -> Bool {
    loop.inEventLoop
}

/// Awaits a future another thread completes, then says where it resumed.
private func resumesOnLoop(_ loop: any EventLoop, after future: EventLoopFuture<Void>) async throws -> Bool {
    try await future.get()
    return loop.inEventLoop
}

@Suite("EventLoopTaskExecutor: a shard's tasks stay on its loop outside the shard too", .timeLimit(.minutes(1)))
struct EventLoopTaskExecutorTests {
    @Test func aStartedTasksNonisolatedWorkAndItsResumptionsRunOnTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loop = group.next()
        let elsewhere = group.next()
        #expect(loop !== elsewhere)
        let owner = Owner(on: loop)
        let (answers, answer) = AsyncStream.makeStream(of: Bool.self)
        let promise = loop.makePromise(of: Void.self)
        owner.startTask { owner in
            answer.yield(await isOnLoop(owner.eventLoop))
            answer.yield((try? await resumesOnLoop(owner.eventLoop, after: promise.futureResult)) ?? false)
            answer.finish()
        }
        var seen: [Bool] = []
        for await onLoop in answers {
            seen.append(onLoop)
            // The promise is kept from another thread once the task waits for it.
            if seen.count == 1 { elsewhere.execute { promise.succeed() } }
        }
        #expect(seen == [true, true], "nonisolated work, then the resumption after a NIO future, on the shard's loop")
        try await group.shutdownGracefully()
    }

    @Test func aTaskPreferringALoopRunsThereAndSoDoItsChildTasks() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loop = group.next()
        let elsewhere = group.next()
        let promise = elsewhere.makePromise(of: Void.self)
        let seen = try await EventLoopTaskExecutor.run(preferring: loop) {
            var seen = [await isOnLoop(loop)]
            elsewhere.execute { promise.succeed() }
            seen.append(try await resumesOnLoop(loop, after: promise.futureResult))
            // As Hummingbird's server hands each connection to a task of a group.
            let (answers, answer) = AsyncStream.makeStream(of: Bool.self)
            await withDiscardingTaskGroup { tasks in
                tasks.addTask { answer.yield(await isOnLoop(loop)) }
            }
            answer.finish()
            for await onLoop in answers { seen.append(onLoop) }
            return seen
        }
        #expect(
            seen == [true, true, true], "the body, its resumption after a future kept on another loop, and a child task, all on the loop")
        #expect(await isOnLoop(loop) == false, "the preference ends with the call")
        try await group.shutdownGracefully()
    }
}
