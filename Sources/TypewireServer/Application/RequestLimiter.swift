import Synchronization

/// Per-user token buckets for REST requests, shared by every request of a node (``RateLimiters``: the
/// table holds only users seen lately).
final class RequestLimiter: Sendable {
    private let buckets: Mutex<RateLimiters<String>>

    /// - Parameters:
    ///   - rate: Requests allowed per second and user, sustained.
    ///   - burst: Requests allowed at once.
    init(rate: Double, burst: Double) {
        buckets = Mutex(RateLimiters(rate: rate, burst: burst))
    }

    /// Takes one of the user's tokens if there is one.
    /// - Returns: Whether the request may go on.
    func allow(_ user: String, now: Int64) -> Bool {
        buckets.withLock { $0.allow(user, now: now) }
    }
}
