import Synchronization

/// One socket's queue of frames to write, bounded in bytes (``ServerConfiguration/maxQueuedBytes``). The hub
/// and the session queue frames; the session's writer drains them into the socket and reports each one
/// written.
///
/// A socket whose queue would grow past the bound reads too slowly to follow: its queue is ended, so
/// nothing more is buffered for it, and the overflow handler runs once (the hub then forgets the
/// connection and closes the socket with 1001; the client reconnects and resyncs).
public final class Outbox: Sendable {
    private struct State {
        var queuedBytes = 0
        var ended = false
        var overflowed: (@Sendable () async -> Void)?
    }

    private let frames: AsyncStream<String>.Continuation
    private let state = Mutex(State())
    /// The most bytes queued at once.
    public let byteLimit: Int

    /// Creates the queue's input side.
    /// - Parameters:
    ///   - frames: The stream the socket's writer drains (unbounded: this type bounds it).
    ///   - byteLimit: The most bytes queued at once.
    public init(frames: AsyncStream<String>.Continuation, byteLimit: Int) {
        self.frames = frames
        self.byteLimit = byteLimit
    }

    /// Bytes queued and not yet written.
    public var queuedBytes: Int { state.withLock { $0.queuedBytes } }

    /// Sets what runs once the queue overflows (the hub sets it when the socket connects).
    func onOverflow(_ handler: @escaping @Sendable () async -> Void) {
        state.withLock { $0.overflowed = handler }
    }

    /// Queues a frame, or cuts the socket off if it does not fit.
    func enqueue(_ text: String) {
        let size = text.utf8.count
        let outcome: Outcome = state.withLock { state in
            guard !state.ended else { return .ended }
            guard state.queuedBytes + size <= byteLimit else {
                state.ended = true
                return .overflowed(state.overflowed)
            }
            state.queuedBytes += size
            return .queued
        }
        switch outcome {
        case .queued:
            frames.yield(text)
        case .ended:
            break
        case .overflowed(let handler):
            frames.finish()
            if let handler { Task { await handler() } }
        }
    }

    private enum Outcome {
        case queued
        case ended
        case overflowed((@Sendable () async -> Void)?)
    }

    /// The writer wrote a frame: its bytes leave the queue.
    public func written(_ text: String) {
        state.withLock { $0.queuedBytes -= text.utf8.count }
    }

    /// Ends the queue: the writer stops once it has written what is queued.
    public func finish() {
        state.withLock { $0.ended = true }
        frames.finish()
    }
}
