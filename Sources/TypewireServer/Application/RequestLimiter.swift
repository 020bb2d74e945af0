import Synchronization

/// Per-user token buckets for REST requests, shared by every request of a node. A user's bucket is
/// dropped once it has been full for a minute, so the table holds only users seen lately.
final class RequestLimiter: Sendable {
    private struct Table {
        var buckets: [String: RateLimiter] = [:]
        var lastSweep: Int64 = 0
    }

    private let rate: Double
    private let burst: Double
    private let table = Mutex(Table())

    /// - Parameters:
    ///   - rate: Requests allowed per second and user, sustained.
    ///   - burst: Requests allowed at once.
    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
    }

    /// Takes one of the user's tokens if there is one.
    /// - Returns: Whether the request may go on.
    func allow(_ user: String, now: Int64) -> Bool {
        table.withLock { table in
            if now - table.lastSweep >= 60_000 {
                // A bucket that would have refilled by now is as good as a new one.
                let refill = Int64(burst / rate * 1_000)
                table.buckets = table.buckets.filter { !$0.value.isIdle(since: now - refill) }
                table.lastSweep = now
            }
            return table.buckets[user, default: RateLimiter(rate: rate, burst: burst)].allow(now: now)
        }
    }
}
