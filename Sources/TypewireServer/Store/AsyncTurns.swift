import NIOConcurrencyHelpers
import NIOCore

/// Gives callers turns one at a time, in the order they asked, across suspension points: what runs in
/// a turn is never interleaved with another turn, even when it awaits.
///
/// The SQLite writer needs this: sqlite-nio runs one statement at a time on a connection, but a
/// transaction spans several awaited statements, and another caller's statement must not land inside
/// it. No package on this machine offers an async mutex (NIO's and the standard library's locks block a
/// thread, which must never happen across an `await`), so it is written here: a flag and a FIFO of
/// waiting continuations behind a lock.
final class AsyncTurns: Sendable {
    private struct State {
        var busy = false
        var waiting = CircularBuffer<CheckedContinuation<Void, Never>>()
    }

    private let state = NIOLockedValueBox(State())

    /// Runs `body` in a turn of its own, after every turn asked for before it.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        await begin()
        do {
            let result = try await body()
            end()
            return result
        } catch {
            end()
            throw error
        }
    }

    private func begin() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func end() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()  // the turn passes on: `busy` stays true
        }
        next?.resume()
    }
}
