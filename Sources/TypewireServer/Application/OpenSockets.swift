import NIOConcurrencyHelpers
import NIOCore
import Prometheus

/// The WebSockets a server has open, so that its shutdown can wait until all of them have closed without
/// keeping a task per socket (Hummingbird keeps a connection's task until `handle` returns; for a socket that
/// would be its whole life, about 4 KiB per idle socket here).
package final class OpenSockets: Sendable {
    private struct State {
        var open = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())
    /// Where the count is shown (`typewire_sockets`), if anywhere.
    private let gauge: Gauge?

    /// - Parameter gauge: A gauge that follows the count.
    package init(gauge: Gauge? = nil) {
        self.gauge = gauge
    }

    /// How many sockets are open now.
    package var count: Int { state.withLockedValue { $0.open } }

    /// Counts a socket until its channel closes.
    package func opened(_ channel: any Channel) {
        state.withLockedValue { $0.open += 1 }
        gauge?.increment()
        channel.closeFuture.whenComplete { _ in self.closed() }
    }

    /// Returns once no socket is open (at once if none is).
    package func allClosed() async {
        await withCheckedContinuation { continuation in
            let now = state.withLockedValue { state in
                guard state.open > 0 else { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func closed() {
        gauge?.decrement()
        let waiting = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.open -= 1
            guard state.open == 0 else { return [] }
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
