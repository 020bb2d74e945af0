import NIOCore

/// An event loop as a task executor (SE-0417): the preferred executor of the tasks a hub shard starts, so
/// that their nonisolated `async` work runs on the shard's loop rather than on Swift's global executor.
///
/// A continuation resumed from a NIO callback (a store's answer) resumes its task on the generic executor
/// before the task hops back to the shard: without a preference, that is a global thread woken for each
/// answer, and the loop woken again by it. With this preference, the task resumes on the loop it was
/// answered on. SwiftNIO's loops are serial executors but not task executors, hence this small adapter.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
