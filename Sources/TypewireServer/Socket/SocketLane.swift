import NIOConcurrencyHelpers
import NIOCore

/// One socket's work for the hub, run in the order it came: items run one after another on a task that
/// exists only while there is work, so an idle socket holds no task. The task is the owner's (the hub's),
/// started on its event loop (``EventLoopActor/startTask(_:)``): the work runs isolated to the owner, with
/// no hop between the items and the owner's methods.
///
/// A socket that sends faster than its work is done is read no further for a while: past
/// ``pauseAt`` items waiting, `pause` is asked for, and `resume` is called once ``resumeAt`` or fewer wait.
final class SocketLane<Item: Sendable, Owner: EventLoopActor>: Sendable {
    /// Items waiting when reading pauses.
    static var pauseAt: Int { 64 }
    /// Items waiting when reading resumes.
    static var resumeAt: Int { 8 }

    private struct State {
        var items = CircularBuffer<Item>(initialCapacity: 4)
        var running = false
        var paused = false
    }

    private let state = NIOLockedValueBox(State())
    private let owner: Owner
    private let work: @Sendable (Item, isolated Owner) async -> Void
    private let resume: @Sendable () -> Void

    /// - Parameters:
    ///   - owner: The actor the work runs on.
    ///   - work: Runs each item, one at a time.
    ///   - resume: Called (on the lane's task) when a paused socket may be read again.
    init(owner: Owner, work: @escaping @Sendable (Item, isolated Owner) async -> Void, resume: @escaping @Sendable () -> Void) {
        self.owner = owner
        self.work = work
        self.resume = resume
    }

    /// Queues an item.
    /// - Returns: Whether to stop reading the socket until `resume` is called.
    func submit(_ item: Item) -> Bool {
        let (start, pause) = state.withLockedValue { state in
            state.items.append(item)
            let start = !state.running
            state.running = true
            let pause = !state.paused && state.items.count >= Self.pauseAt
            if pause { state.paused = true }
            return (start, pause)
        }
        if start { owner.startTask { owner in await self.run(on: owner) } }
        return pause
    }

    /// Runs an item at once, on the owner, when nothing waits or runs in the lane and the caller is on the
    /// owner's loop, if `now` can do it without waiting (it returns false, having done nothing, when it
    /// cannot); otherwise queues it as ``submit(_:)`` does. An item that needs no task gets none.
    /// - Returns: Whether to stop reading the socket until `resume` is called.
    func submit(_ item: Item, tryingNow now: @Sendable (Item, isolated Owner) -> Bool) -> Bool {
        if owner.eventLoop.inEventLoop, state.withLockedValue({ !$0.running && $0.items.isEmpty }),
            owner.assumeIsolated({ owner in now(item, owner) })
        {
            return false
        }
        return submit(item)
    }

    private func run(on owner: isolated Owner) async {
        while true {
            let (next, resumes): (Item?, Bool) = state.withLockedValue { state in
                guard let item = state.items.popFirst() else {
                    state.running = false
                    return (nil, false)
                }
                let resumes = state.paused && state.items.count <= Self.resumeAt
                if resumes { state.paused = false }
                return (item, resumes)
            }
            guard let next else { return }
            if resumes { resume() }
            await work(next, owner)
        }
    }
}
