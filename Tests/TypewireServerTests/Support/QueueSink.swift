import NIOConcurrencyHelpers

@testable import TypewireServer

/// A sink for the hub's own tests: frames go to a stream the test reads, bounded in bytes as a socket's
/// write buffer is; past the bound the stream ends and the overflow handler runs once.
final class QueueSink: FrameSink {
    private struct State {
        var queuedBytes = 0
        var ended = false
        var overflowed: (@Sendable () async -> Void)?
    }

    private let frames: AsyncStream<String>.Continuation
    private let state = NIOLockedValueBox(State())
    private let byteLimit: Int

    init(frames: AsyncStream<String>.Continuation, byteLimit: Int = 1 << 30) {
        self.frames = frames
        self.byteLimit = byteLimit
    }

    private enum Outcome {
        case queued
        case dropped
        case overflowed((@Sendable () async -> Void)?)
    }

    func enqueue(_ frame: OutboundFrame) {
        let text = frame.text
        let outcome: Outcome = state.withLockedValue { state in
            guard !state.ended else { return .dropped }
            guard state.queuedBytes + text.utf8.count <= byteLimit else {
                state.ended = true
                return .overflowed(state.overflowed)
            }
            state.queuedBytes += text.utf8.count
            return .queued
        }
        switch outcome {
        case .queued: frames.yield(text)
        case .dropped: break
        case .overflowed(let handler):
            frames.finish()
            if let handler { Task { await handler() } }
        }
    }

    func finish() {
        state.withLockedValue { $0.ended = true }
        frames.finish()
    }

    func onOverflow(_ handler: @escaping @Sendable () async -> Void) {
        state.withLockedValue { $0.overflowed = handler }
    }

    func close(reason: String) async {
        finish()
    }
}
