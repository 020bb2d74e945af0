import NIOConcurrencyHelpers
import NIOCore

/// How many handshakes (a `hello`'s token check and registration, a `subscribe`'s reads) the server works on
/// at once; the others wait their turn, first come first served.
///
/// Without it a reconnect storm (thousands of sockets dropped at once and coming back within the SDK's first
/// backoff) puts thousands of handshakes' jobs on the event loops at once, and every frame of the sockets
/// already open waits behind them: docs/BENCHMARKS.md ("Reconnect storm"). With it, what the loops hold of
/// handshakes at any moment is bounded, so a frame waits behind at most that much; the storm itself takes
/// about as long, since the handshakes queue at the store anyway.
///
/// No package this project uses has an async semaphore; this is a lock and a queue of continuations.
final class HandshakeGate: Sendable {
    private struct State {
        var inFlight = 0
        var waiting = CircularBuffer<CheckedContinuation<Void, Never>>()
    }

    /// The most handshakes worked on at once.
    let limit: Int
    private let state = NIOLockedValueBox(State())

    init(limit: Int) {
        precondition(limit > 0, "a gate lets at least one through")
        self.limit = limit
    }

    /// Runs `body` once fewer than ``limit`` others run, in the order the callers came.
    func run<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    /// Handshakes running and waiting now.
    var load: (running: Int, waiting: Int) {
        state.withLockedValue { ($0.inFlight, $0.waiting.count) }
    }

    private func enter(isolation: isolated (any Actor)? = #isolation) async {
        let entered = state.withLockedValue { state in
            guard state.inFlight < limit else { return false }
            state.inFlight += 1
            return true
        }
        guard !entered else { return }
        await withCheckedContinuation { continuation in
            let now = state.withLockedValue { state -> Bool in
                // A place may have been freed between the two locks.
                guard state.inFlight < limit else {
                    state.waiting.append(continuation)
                    return false
                }
                state.inFlight += 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Hands the place to the first waiter, or frees it.
    private func leave() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard let next = state.waiting.popFirst() else {
                state.inFlight -= 1
                return nil
            }
            return next  // the place passes on: inFlight stays
        }
        next?.resume()
    }
}
