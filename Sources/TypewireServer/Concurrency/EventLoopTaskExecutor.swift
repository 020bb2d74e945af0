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

extension EventLoopTaskExecutor {
    /// Runs `body` with `loop` as the calling task's preferred executor, and so of the child tasks it adds to
    /// task groups: what it does outside actors runs on that loop, and a NIO future it awaits resumes it there.
    ///
    /// The HTTP server's tasks run this way: Hummingbird takes each accepted connection from an async sequence
    /// in one task and hands it to a child task of its own, which awaits the connection's upgrade. On Swift's
    /// global executor each of those steps woke a global thread and switched to it (two or three thread
    /// switches per socket before its first frame); on the loops they run between the loops' I/O.
    static func run<T>(preferring loop: any EventLoop, _ body: () async throws -> T) async rethrows -> T {
        if #available(macOS 15, iOS 18, *) {
            return try await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) { try await body() }
        } else {
            return try await body()
        }
    }
}
