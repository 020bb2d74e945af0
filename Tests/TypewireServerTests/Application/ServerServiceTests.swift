import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Testing

@testable import TypewireServer

/// Stands for Hummingbird's application: says where it runs, and where a task it adds to a group runs, as
/// Hummingbird's server does for each connection.
private struct WhereItRuns: Service {
    let loop: any EventLoop
    let answer: AsyncStream<Bool>.Continuation

    func run() async throws {
        answer.yield(loop.inEventLoop)
        await withDiscardingTaskGroup { tasks in
            tasks.addTask { answer.yield(loop.inEventLoop) }
        }
        answer.finish()
    }
}

@Suite("ServerService: the HTTP server's tasks run on an event loop", .timeLimit(.minutes(1)))
struct ServerServiceTests {
    @Test func theServerAndTheTasksItAddsRunOnItsLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let (answers, answer) = AsyncStream.makeStream(of: Bool.self)
        let service = ServerService(
            application: WhereItRuns(loop: loop, answer: answer), loop: loop, sockets: OpenSockets(), logger: Logger(label: "test"))
        try await service.run()
        var seen: [Bool] = []
        for await onLoop in answers { seen.append(onLoop) }
        #expect(seen == [true, true], "the server's task and a connection's task, on the loop rather than Swift's global executor")
        try await group.shutdownGracefully()
    }
}
