import HeapModule
import NIOConcurrencyHelpers
import NIOCore

/// The sockets' timers of one event loop (the hello timeout, the token's expiry, the pings, a request head's
/// deadline): armed in O(log n), cancelled in O(1), and one NIO task armed for the earliest.
///
/// NIO keeps a loop's scheduled tasks in one heap and cancels a task by scanning that heap (`Scheduled.cancel()`
/// in swift-nio 2.x's `SelectableEventLoop` is `removeFirst(where:)`, O(n) in the loop's tasks). Every socket
/// holds two or three timers and cancels some at each handshake and close, so with 10 000 sockets each cancel
/// read tens of thousands of tasks: 3-5 % of the server's CPU while sockets connect, and a second of the loops'
/// time in a reconnect storm of 10 000 (docs/BENCHMARKS.md, "Timers"). Here a cancelled timer only loses its
/// action; its heap entry is dropped when it comes up, or when cancelled entries outnumber the live ones, so
/// memory stays bounded by the live timers.
///
/// One per event loop (``TimerQueues``); everything here belongs to that loop.
final class TimerQueue: @unchecked Sendable {
    /// A timer armed on the queue, to cancel it.
    struct Timer: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Entry: Comparable {
        let deadline: NIODeadline
        let id: UInt64

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.id) < (rhs.deadline, rhs.id)
        }
    }

    let eventLoop: any EventLoop
    private var entries = Heap<Entry>()
    /// The live timers' actions: a timer without one was cancelled or has fired.
    private var actions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 0
    /// The NIO task armed for the earliest entry, and its deadline.
    private var armed: (deadline: NIODeadline, task: Scheduled<Void>)?

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The timers armed and neither fired nor cancelled.
    var count: Int { actions.count }

    /// The entries held, cancelled ones included: at most twice the live timers, plus a few.
    var heldEntries: Int { entries.count }

    /// Runs `action` on the loop once `delay` has passed, unless the timer is cancelled first.
    @discardableResult
    func schedule(in delay: TimeAmount, _ action: @escaping () -> Void) -> Timer {
        schedule(at: eventLoop.now + delay, action)
    }

    /// Runs `action` on the loop at `deadline`, unless the timer is cancelled first.
    @discardableResult
    func schedule(at deadline: NIODeadline, _ action: @escaping () -> Void) -> Timer {
        eventLoop.assertInEventLoop()
        nextID &+= 1
        let entry = Entry(deadline: deadline, id: nextID)
        actions[entry.id] = action
        entries.insert(entry)
        if armed.map({ deadline < $0.deadline }) ?? true { arm(for: deadline) }
        return Timer(id: entry.id)
    }

    /// Cancels a timer: its action will not run. Harmless for a timer that fired or was cancelled already.
    func cancel(_ timer: Timer) {
        eventLoop.assertInEventLoop()
        guard actions.removeValue(forKey: timer.id) != nil else { return }
        if entries.count > 2 * actions.count + 64 { dropCancelledEntries() }
    }

    /// Runs the actions that are due, in deadline order, then arms the NIO task for the next.
    private func fireDue() {
        armed = nil
        let now = eventLoop.now
        var due: [UInt64] = []
        while let first = entries.min, first.deadline <= now {
            entries.removeMin()
            due.append(first.id)
        }
        // An action may cancel a later one, or arm another: each is looked up as it comes.
        for id in due {
            actions.removeValue(forKey: id)?()
        }
        while let first = entries.min, actions[first.id] == nil { entries.removeMin() }
        if let first = entries.min, armed.map({ first.deadline < $0.deadline }) ?? true { arm(for: first.deadline) }
    }

    private func arm(for deadline: NIODeadline) {
        armed?.task.cancel()  // the loop's own heap holds a few tasks of ours, not one per socket
        let task = eventLoop.scheduleTask(deadline: deadline) { self.fireDue() }
        armed = (deadline, task)
    }

    private func dropCancelledEntries() {
        entries = Heap(entries.unordered.filter { actions[$0.id] != nil })
    }
}

/// The ``TimerQueue`` of each event loop of a server.
final class TimerQueues: Sendable {
    private let queues = NIOLockedValueBox<[ObjectIdentifier: TimerQueue]>([:])

    init() {}

    /// The queue of `eventLoop`, made on first use.
    func queue(for eventLoop: any EventLoop) -> TimerQueue {
        queues.withLockedValue { queues in
            let key = ObjectIdentifier(eventLoop)
            if let queue = queues[key] { return queue }
            let queue = TimerQueue(eventLoop: eventLoop)
            queues[key] = queue
            return queue
        }
    }
}
