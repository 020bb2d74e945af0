import NIOCore

/// An actor whose executor is a NIO event loop: its jobs run on that loop's thread, between the loop's I/O,
/// and work for it can start there without a trip through Swift's global executor.
///
/// The actor says which loop owns it; conformers return `eventLoop.executor` from `unownedExecutor`.
protocol EventLoopActor: Actor {
    /// The loop the actor's code runs on.
    nonisolated var eventLoop: any EventLoop { get }
    /// The same loop as the preferred executor of the tasks the actor starts (``startTask(_:)``).
    nonisolated var taskExecutor: EventLoopTaskExecutor { get }
}

extension EventLoopActor {
    /// Starts a task isolated to the actor, enqueued on its loop directly: on the loop, as the loop's next
    /// job; from another thread, after one hop to the loop. (A plain `Task` would start on the global
    /// executor and hop to the actor from there: a second thread woken for every start.)
    nonisolated func startTask(_ operation: @escaping @Sendable (isolated Self) async -> Void) {
        guard eventLoop.inEventLoop else {
            return eventLoop.execute { self.startTask(operation) }
        }
        _ = assumeIsolated { actor in
            if #available(macOS 15, iOS 18, *) {
                // What the task does outside the actor runs on the loop too (``EventLoopTaskExecutor``).
                Task(executorPreference: taskExecutor) {
                    await operation(actor)
                }
            } else {
                Task {
                    await operation(actor)
                }
            }
        }
    }
}
