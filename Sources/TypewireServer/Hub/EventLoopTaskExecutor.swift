import NIOCore

/// An event loop as a task executor (SE-0417): the preferred executor of the tasks a hub shard starts
/// (``EventLoopActor/startTask(_:)``), so that what they do outside the shard runs on the shard's loop
/// rather than on Swift's global executor.
///
/// Without it, every `await` of a plain `async` function (the store's methods, sqlite-nio's and NIO's own
/// `get()`) went to a global thread, and every continuation a NIO callback resumed (a store's answer)
/// resumed there before the task hopped back to its shard: a thread woken and the loop woken again, a few
/// times per socket's handshake. With it, that work runs on the loop, between its I/O; only the store's
/// statements leave it, for the store's own threads. (Actors without an executor of their own, such as the
/// key set's, run there too while such a task calls them.) SwiftNIO's loops are serial executors but not
/// task executors, hence this adapter.
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
