import NIOConcurrencyHelpers
import Testing

@testable import TypewireServer

/// The gate in front of handshakes: at most its limit run at once, the others wait in the order they came.
@Suite struct HandshakeGateTests {
    /// A handshake that runs until the test lets it finish, and says when it started.
    private final class Held: Sendable {
        let started: AsyncStream<Int>
        private let startedContinuation: AsyncStream<Int>.Continuation
        private let releases = NIOLockedValueBox<[Int: CheckedContinuation<Void, Never>]>([:])
        private let pendingReleases = NIOLockedValueBox<Set<Int>>([])

        init() {
            (started, startedContinuation) = AsyncStream.makeStream(of: Int.self)
        }

        func run(_ index: Int) async {
            startedContinuation.yield(index)
            await withCheckedContinuation { continuation in
                let released = pendingReleases.withLockedValue { $0.remove(index) != nil }
                if released { continuation.resume() } else { releases.withLockedValue { $0[index] = continuation } }
            }
        }

        func release(_ index: Int) {
            let continuation = releases.withLockedValue { $0.removeValue(forKey: index) }
            if let continuation { continuation.resume() } else { pendingReleases.withLockedValue { _ = $0.insert(index) } }
        }
    }

    @Test func atMostTheLimitRunAndTheOthersFollowInTheirOrder() async throws {
        let gate = HandshakeGate(limit: 2)
        let held = Held()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask { await gate.run { await held.run(index) } }
                // Each caller is queued before the next comes, so the order is known.
                while gate.load.running + gate.load.waiting < index + 1 { await Task.yield() }
            }
            var started = held.started.makeAsyncIterator()
            let first = [await started.next(), await started.next()]
            #expect(Set(first) == [0, 1])
            #expect(gate.load.running == 2)
            #expect(gate.load.waiting == 3)
            held.release(1)
            #expect(await started.next() == 2, "the first waiter takes the freed place")
            held.release(0)
            #expect(await started.next() == 3)
            held.release(2)
            #expect(await started.next() == 4)
            #expect(gate.load.waiting == 0)
            held.release(3)
            held.release(4)
        }
        #expect(gate.load.running == 0, "every place is free again")
    }
}
