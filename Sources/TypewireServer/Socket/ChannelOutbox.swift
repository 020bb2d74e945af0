import NIOCore
import NIOWebSocket
import Synchronization

/// The outbox of one socket of the socket layer: frames are written to the socket's channel on its event
/// loop, without a task or a stream of their own, batched by the loop's ``LoopWriter``.
///
/// The socket's unsent bytes are bounded by the channel's write-buffer water marks (the high mark is
/// ``ServerConfiguration/maxQueuedBytes``): a socket whose channel turns unwritable reads too slowly to
/// follow, and the overflow handler runs once (the hub forgets the connection and closes the socket with
/// 1001; the client reconnects and resyncs).
///
/// `ended` and the overflow handler may be touched from any thread; `needsFlush` and `closeSent` belong to
/// the channel's event loop.
package final class ChannelOutbox: Outbox, @unchecked Sendable {
    package let channel: any Channel
    private let writer: LoopWriter
    private let closeTimeout: TimeAmount
    private let ended = Atomic<Bool>(false)
    private let overflowed = Mutex<(@Sendable () async -> Void)?>(nil)
    /// Written to since the last flush (the loop's).
    private var needsFlush = false
    /// A close frame has been written (the loop's).
    private(set) var closeSent = false
    /// Overflowed once (the loop's).
    private var cutOff = false

    package init(channel: any Channel, writer: LoopWriter, closeTimeout: TimeAmount) {
        self.channel = channel
        self.writer = writer
        self.closeTimeout = closeTimeout
    }

    // MARK: Outbox (any thread)

    package func enqueue(_ frame: OutboundFrame) {
        guard !ended.load(ordering: .relaxed) else { return }
        if writer.eventLoop.inEventLoop {
            writer.writePending()  // what other threads queued first
            writeNow(frame)
        } else {
            writer.submit(.frame(frame), to: self)
        }
    }

    package func finish() {
        ended.store(true, ordering: .relaxed)
    }

    package func onOverflow(_ handler: @escaping @Sendable () async -> Void) {
        overflowed.withLock { $0 = handler }
    }

    package func close(reason: String, shutdown: Bool) async {
        writer.submit(.close(reason: reason, shutdown: shutdown), to: self)
        guard shutdown else { return }
        try? await channel.closeFuture.get()
    }

    // MARK: On the loop

    /// Writes a frame of the socket's own (an answer, a pong) after whatever was queued before it.
    package func send(_ frame: OutboundFrame) {
        writer.writePending()
        writeNow(frame)
    }

    /// Writes a frame without a flush; the loop's writer flushes at the end of the turn.
    func writeNow(_ frame: OutboundFrame) {
        guard !closeSent else { return }
        channel.write(frame.bytes, promise: nil)
        guard !needsFlush else { return }
        needsFlush = true
        writer.markDirty(self)
    }

    func flushNow() {
        needsFlush = false
        channel.flush()
    }

    /// Writes a close frame after what is queued (once) and closes the channel once the peer answers, or
    /// when `waitForPeer` and the close timeout has passed.
    package func closeNow(code: WebSocketErrorCode, reason: String, waitForPeer: Bool = true) {
        writer.writePending()
        guard !closeSent else { return }
        writeNow(OutboundFrame(closeCode: code, reason: reason))
        closeSent = true
        ended.store(true, ordering: .relaxed)
        guard waitForPeer else { return }
        let channel = channel
        channel.eventLoop.scheduleTask(in: closeTimeout) { channel.close(promise: nil) }
    }

    /// Closes the connection once everything written so far has left.
    package func closeAfterFlush() {
        let channel = channel
        channel.writeAndFlush(ByteBuffer()).whenComplete { _ in channel.close(promise: nil) }
    }

    /// The channel turned unwritable: the socket reads too slowly to follow. Runs the overflow handler once.
    func becameUnwritable() {
        guard !cutOff else { return }
        cutOff = true
        guard let handler = overflowed.withLock({ $0 }) else { return }
        Task { await handler() }
    }
}
