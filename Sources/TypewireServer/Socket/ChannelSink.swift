import Atomics
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

#if canImport(Glibc)
    import Glibc  // linger
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sink of one socket of the socket layer: frames are written to the socket's channel on its event
/// loop, without a task or a stream of their own, batched by the loop's ``LoopWriter``.
///
/// What the socket's unsent frames hold in memory is bounded (``SentBytes``): a socket whose frames would
/// hold more than ``ServerConfiguration/Sockets/maxQueuedBytes`` reads too slowly to follow, and it is cut off. It
/// gets a close frame (1001) after what is queued, nothing more is written to it, the overflow handler runs
/// once (the hub forgets the connection: the others see the user's activity cleared at once), and the
/// channel is closed within the close timeout whatever the peer does (``closeAfterFlush()``).
///
/// Every close of ours ends within the close timeout: a channel still open then is reset (SO_LINGER 0), so
/// that neither NIO's buffer nor the kernel's send queue keeps what a peer that reads nothing never took.
///
/// `ended` and the overflow handler may be touched from any thread; everything else belongs to the channel's
/// event loop, and the methods that touch it check that they run there.
package final class ChannelSink: FrameSink, @unchecked Sendable {
    package let channel: any Channel
    private let writer: LoopWriter
    private let closeTimeout: TimeAmount
    private let ended = ManagedAtomic<Bool>(false)
    private let overflowed = NIOLockedValueBox<(@Sendable () async -> Void)?>(nil)
    /// Written to since the last flush (the loop's).
    private var needsFlush = false
    /// When the first frame since the last flush was written, with ``StageTimings`` only (the loop's).
    private var firstWriteAt: NIODeadline?
    /// A close frame has been written (the loop's).
    private(set) var closeSent = false
    /// Past its bound: nothing but the close frame is written any more (the loop's).
    private var cutOff = false
    /// The memory held by the frames written and not yet sent (the loop's).
    private var sent: SentBytes
    /// Frames held back, a reply's parts merged, while the peer reads slower than the socket writes (the loop's).
    private var held = HeldFrames()
    /// Pings answered while an earlier pong had not left yet (the loop's): see ``answerPing(_:)``.
    private var pongsOwed = 0
    /// The deadline of a close of ours (the loop's).
    private var closeDeadline: Scheduled<Void>?
    /// Work waiting for the peer to read what it was sent (the loop's): see ``untilWritable(isolation:)``.
    private var writableWaiters: [CheckedContinuation<Void, Never>] = []

    /// Pings a socket may send while the pong of an earlier one has not left (the socket does not read):
    /// past it the socket is cut off as one that reads too slowly.
    static let maxPongsOwed = 16

    /// - Parameters:
    ///   - maxHeldBytes: The most memory the socket's unsent frames may hold (``SentBytes``).
    ///   - closeTimeout: How long a close of ours may take before the channel is reset.
    package init(channel: any Channel, writer: LoopWriter, maxHeldBytes: Int, closeTimeout: TimeAmount) {
        self.channel = channel
        self.writer = writer
        self.closeTimeout = closeTimeout
        self.sent = SentBytes(limit: maxHeldBytes)
    }

    // MARK: FrameSink (any thread)

    package func enqueue(_ frame: OutboundFrame) {
        guard !ended.load(ordering: .relaxed) else { return }
        if writer.eventLoop.inEventLoop {
            writer.writePending()  // what other threads queued first
            writeNow(frame)
        } else {
            writer.submit(.frame(frame), to: self)
        }
    }

    /// Whether the sink takes no more frames: finished, closing, or cut off (any thread).
    var hasEnded: Bool { ended.load(ordering: .relaxed) }

    package func finish() {
        ended.store(true, ordering: .relaxed)
    }

    package func onOverflow(_ handler: @escaping @Sendable () async -> Void) {
        overflowed.withLockedValue { $0 = handler }
    }

    package func close(reason: String) async {
        writer.submit(.close(reason: reason), to: self)
        try? await channel.closeFuture.get()
    }

    // MARK: On the loop

    /// Returns once NIO holds no more of the socket's unsent bytes than its water marks allow, or at once if it
    /// does not now; also when the channel closes. For work whose answer is large (a `subscribed` may be 64
    /// KiB): a peer that reads nothing has the server make as much as its buffers take, then nothing more,
    /// however many such asks it sent in one read. Waits only when called on the socket's loop (its shard's,
    /// in a server; a test's channel may live on another), where the wait's state belongs.
    func untilWritable(isolation: isolated (any Actor)? = #isolation) async {
        guard channel.eventLoop.inEventLoop, !channel.isWritable, channel.isActive else { return }
        await withCheckedContinuation { writableWaiters.append($0) }
    }

    /// The socket became writable again, or closed: the work waiting for it goes on.
    func writabilityReturned() {
        channel.eventLoop.assertInEventLoop()
        guard !writableWaiters.isEmpty else { return }
        let waiters = writableWaiters
        writableWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// Writes a frame of the socket's own (an answer) after whatever was queued before it.
    package func send(_ frame: OutboundFrame) {
        writer.writePending()
        writeNow(frame)
    }

    /// Answers a ping with a pong after whatever was queued. A socket that keeps pinging while it reads
    /// nothing (its pongs cannot leave) is cut off after ``maxPongsOwed`` pings, instead of piling up pongs.
    func answerPing(_ payload: ByteBuffer) {
        channel.eventLoop.assertInEventLoop()
        if sent.isBehind {
            pongsOwed += 1
            guard pongsOwed <= Self.maxPongsOwed else { return cutOffNow(because: "pinged without reading the pongs") }
        } else {
            pongsOwed = 0
        }
        send(OutboundFrame(control: .pong, payload: payload))
    }

    /// Writes a frame without a flush; the loop's writer flushes at the end of the turn. A frame that would
    /// take the socket past its bound cuts it off instead.
    func writeNow(_ frame: OutboundFrame) {
        channel.eventLoop.assertInEventLoop()
        guard !closeSent, !cutOff else { return }
        // A reply's part for a peer that is behind waits, to merge with the next (``HeldFrames``); so does
        // every frame after it, in order, until what was written before has left.
        if !held.isEmpty || (frame.replyPart != nil && sent.isBehind) {
            guard held.hold(frame, within: sent.room) else { return cutOffNow(because: "read too slowly to follow") }
            return
        }
        guard sent.fits(frame) else { return cutOffNow(because: "read too slowly to follow") }
        put(frame)
    }

    /// Writes what was held back, once what was written before it has left (or before a close frame).
    private func releaseHeld() {
        guard !held.isEmpty else { return }
        let frames = held.take()
        guard !cutOff else { return }
        for frame in frames { put(frame) }
    }

    private func put(_ frame: OutboundFrame) {
        channel.write(frame.bytes, promise: nil)
        sent.wrote(frame)
        guard !needsFlush else { return }
        needsFlush = true
        if writer.timings != nil { firstWriteAt = .now() }
        writer.markDirty(self)
    }

    func flushNow() {
        channel.eventLoop.assertInEventLoop()
        needsFlush = false
        channel.flush()
        if let timings = writer.timings, let firstWriteAt {
            timings.record(timings.writeToFlush, since: firstWriteAt)
            self.firstWriteAt = nil
        }
        let left = (try? channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
        guard let mark = sent.flushed(leaving: left) else { return }
        // Bytes are left behind: an empty write after them completes once they (and it) have left.
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { [self] _ in
            sent.left(upTo: mark)
            releaseHeld()
        }
        channel.writeAndFlush(ByteBuffer(), promise: promise)
    }

    /// Writes a close frame after what is queued (once) and closes the channel once the peer answers, or
    /// when `waitForPeer` and the close timeout has passed (reset if it is still open then).
    package func closeNow(code: WebSocketErrorCode, reason: String, waitForPeer: Bool = true) {
        writer.writePending()
        writeClose(code: code, reason: reason, waitForPeer: waitForPeer)
    }

    /// Closes with the going-away code (1001) after what is queued: the server stops, or closes every socket.
    /// Called by the loop's writer, in order with the frames queued before it.
    func closeGoingAway(reason: String) {
        writeClose(code: .goingAway, reason: reason, waitForPeer: true)
    }

    /// ``closeNow(code:reason:waitForPeer:)`` without first writing what other threads queued: for the
    /// writer's own loop over them, which must not be entered again.
    private func writeClose(code: WebSocketErrorCode, reason: String, waitForPeer: Bool) {
        guard !closeSent else { return }
        releaseHeld()  // what was queued goes before the close frame (nothing, when cut off)
        put(OutboundFrame(closeCode: code, reason: reason))
        closeSent = true
        ended.store(true, ordering: .relaxed)
        if waitForPeer { resetAtDeadline() }
    }

    /// Closes the connection once everything written so far has left, and resets it if that has not happened
    /// within the close timeout (the peer reads nothing).
    package func closeAfterFlush() {
        let channel = channel
        channel.writeAndFlush(ByteBuffer()).whenComplete { _ in channel.close(promise: nil) }
        resetAtDeadline()
    }

    /// Past its bound: the socket gets a close frame (1001) and is closed within the close timeout; the hub
    /// is told to forget it.
    private func cutOffNow(because reason: String) {
        guard !cutOff else { return }
        cutOff = true
        writeClose(code: .goingAway, reason: "the connection \(reason); reconnect", waitForPeer: false)
        closeAfterFlush()
        guard let handler = overflowed.withLockedValue({ $0 }) else { return }
        Task { await handler() }
    }

    /// Resets the channel if it is still open when the close timeout has passed.
    private func resetAtDeadline() {
        guard closeDeadline == nil else { return }
        let channel = channel
        closeDeadline = channel.eventLoop.scheduleTask(in: closeTimeout) { Self.reset(channel) }
    }

    /// Closes a channel with a reset: what NIO and the kernel still hold for it is dropped at once.
    static func reset(_ channel: any Channel) {
        guard channel.isActive else { return }
        guard let options = channel as? any SocketOptionProvider else { return channel.close(promise: nil) }
        options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }
}
