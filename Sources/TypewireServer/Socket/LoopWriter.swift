import NIOConcurrencyHelpers
import NIOCore

/// Writes frames to the sockets of one event loop in batches: what is written in one turn of the loop goes
/// without a flush, and each socket is flushed once at the end of the turn, so the frames one socket gets
/// in a turn leave in one `writev`. Frames queued on other threads (the hub's) reach the loop in one hop per
/// turn, however many sockets and frames they are for.
///
/// One per event loop (``LoopWriters``). `pending` is shared with other threads under its lock; `dirty` and
/// `flushScheduled` belong to the loop.
package final class LoopWriter: @unchecked Sendable {
    /// One write queued from another thread.
    enum Item {
        case frame(OutboundFrame)
        /// The server closes the socket (1001): it stops, or all sockets are closed.
        case close(reason: String)
    }

    private struct Pending {
        var items: [(ChannelSink, Item)] = []
        var hopScheduled = false
        /// When the first of `items` was queued (with ``StageTimings`` only).
        var firstQueuedAt: NIODeadline?
    }

    let eventLoop: any EventLoop
    /// Where the hop to the loop and each socket's wait for its flush are timed, if anywhere.
    let timings: StageTimings?
    private let pending = NIOLockedValueBox(Pending())
    /// Sockets written to in this turn and not yet flushed (the loop's).
    private var dirty: [ChannelSink] = []
    /// Whether a flush of `dirty` is scheduled (the loop's).
    private var flushScheduled = false

    init(eventLoop: any EventLoop, timings: StageTimings?) {
        self.eventLoop = eventLoop
        self.timings = timings
    }

    /// Queues a write from any thread; it reaches the loop with the others of this turn.
    func submit(_ item: Item, to sink: ChannelSink) {
        let queuedAt = timings == nil ? nil : NIODeadline.now()
        let hop = pending.withLockedValue { pending in
            pending.items.append((sink, item))
            defer { pending.hopScheduled = true }
            if pending.firstQueuedAt == nil { pending.firstQueuedAt = queuedAt }
            return !pending.hopScheduled
        }
        if hop { eventLoop.execute { self.writePending() } }
    }

    /// Writes what other threads queued, in order, then flushes. On the loop; also called before a write made
    /// on the loop, so that it does not overtake them.
    func writePending() {
        eventLoop.assertInEventLoop()
        var items: [(ChannelSink, Item)] = []
        let queuedAt = pending.withLockedValue { pending in
            pending.hopScheduled = false
            swap(&items, &pending.items)
            defer { pending.firstQueuedAt = nil }
            return pending.firstQueuedAt
        }
        guard !items.isEmpty else { return }
        if let timings, let queuedAt { timings.record(timings.hopToLoop, since: queuedAt) }
        for (sink, item) in items {
            switch item {
            case .frame(let frame): sink.writeNow(frame)
            case .close(let reason): sink.closeGoingAway(reason: reason)
            }
        }
        flushDirty()
    }

    /// Notes a socket written to without a flush; it is flushed at the end of the turn. On the loop.
    func markDirty(_ sink: ChannelSink) {
        eventLoop.assertInEventLoop()
        dirty.append(sink)
        guard !flushScheduled else { return }
        flushScheduled = true
        eventLoop.execute { self.flushDirty() }
    }

    /// Flushes every socket written to since the last flush, once each.
    private func flushDirty() {
        eventLoop.assertInEventLoop()
        flushScheduled = false
        guard !dirty.isEmpty else { return }
        let sockets = dirty
        dirty.removeAll(keepingCapacity: true)
        for sink in sockets { sink.flushNow() }
    }
}

/// The ``LoopWriter`` of each event loop of a server.
package final class LoopWriters: Sendable {
    private let writers = NIOLockedValueBox<[ObjectIdentifier: LoopWriter]>([:])
    private let timings: StageTimings?

    /// - Parameter timings: Where the writers time their stages, if anywhere.
    package init(timings: StageTimings? = nil) {
        self.timings = timings
    }

    /// The writer of `eventLoop`, made on first use.
    package func writer(for eventLoop: any EventLoop) -> LoopWriter {
        writers.withLockedValue { writers in
            let key = ObjectIdentifier(eventLoop)
            if let writer = writers[key] { return writer }
            let writer = LoopWriter(eventLoop: eventLoop, timings: timings)
            writers[key] = writer
            return writer
        }
    }
}
