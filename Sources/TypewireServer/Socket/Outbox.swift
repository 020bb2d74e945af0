/// One socket's queue of frames to write, bounded (``ServerConfiguration/maxQueuedFrames``; the session
/// makes the stream). The hub and the session queue frames; the session's writer drains them into the socket.
///
/// A socket whose queue is full reads too slowly to follow: its queue is ended, so nothing more is
/// buffered for it, and `overflowed` runs once (the hub then forgets the connection and closes the
/// socket with 1001; the client reconnects and resyncs).
struct Outbox: Sendable {
    /// The queue's input.
    let frames: AsyncStream<String>.Continuation
    /// Called once the queue is full, after the frame that did not fit.
    let overflowed: @Sendable () async -> Void

    /// Queues a frame, or cuts the socket off if its queue is full.
    func enqueue(_ text: String) {
        guard case .dropped = frames.yield(text) else { return }
        frames.finish()
        Task { await overflowed() }
    }
}
