import NIOConcurrencyHelpers

/// A token bucket per key (a user, a client address): a pure value fed the server's time in milliseconds.
///
/// A key's bucket is forgotten once it is full again (nothing came for `burst / rate` seconds): the buckets
/// kept are those of keys seen lately, pruned whenever their number has doubled since the last pruning.
struct RateLimiters<Key: Hashable & Sendable>: Sendable {
    private let rate: Double
    private let burst: Double
    private var buckets: [Key: RateLimiter] = [:]
    /// The number of buckets at which the next pruning runs.
    private var pruneAt = 1_024

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
    }

    /// How many keys have a bucket now.
    var count: Int { buckets.count }

    /// Takes one token of the key's bucket if there is one.
    /// - Returns: Whether it had one.
    mutating func allow(_ key: Key, now: Int64) -> Bool {
        if buckets.count >= pruneAt { prune(now: now) }
        return buckets[key, default: RateLimiter(rate: rate, burst: burst)].allow(now: now)
    }

    /// Whether the key's bucket is empty now (a key without a bucket has a full one); takes nothing.
    func isSpent(_ key: Key, now: Int64) -> Bool {
        buckets[key].map { !$0.hasToken(now: now) } ?? false
    }

    /// Forgets the buckets that have refilled: their keys start from a full bucket again either way.
    private mutating func prune(now: Int64) {
        // `exactly`: a tiny rate or a huge burst from a setting takes the time past Int64's range (never refilled).
        let refill = rate > 0 ? Int64(exactly: (burst / rate * 1_000).rounded(.up)) ?? .max : .max
        if refill != .max { buckets = buckets.filter { !$0.value.isIdle(since: now - refill) } }
        pruneAt = max(1_024, buckets.count * 2)
    }
}

/// ``RateLimiters`` shared by every connection of a node, behind a lock: the REST requests per user
/// (``RequestLimiter``), the handshakes per user (``HandshakeBudgets``), the refused sockets per client address.
final class SharedRateLimiters<Key: Hashable & Sendable>: Sendable {
    private let limiters: NIOLockedValueBox<RateLimiters<Key>>

    /// - Parameters:
    ///   - rate: Tokens regained per second and key.
    ///   - burst: Tokens a key has at once.
    init(rate: Double, burst: Double) {
        limiters = NIOLockedValueBox(RateLimiters(rate: rate, burst: burst))
    }

    /// Buckets of the budget, one per key.
    convenience init(_ budget: RateBudget) {
        self.init(rate: budget.rate, burst: budget.burst)
    }

    /// Takes one token of the key's bucket if there is one (``RateLimiters/allow(_:now:)``).
    func allow(_ key: Key, now: Int64) -> Bool {
        limiters.withLockedValue { $0.allow(key, now: now) }
    }

    /// Whether the key's bucket is empty now; takes nothing (``RateLimiters/isSpent(_:now:)``).
    func isSpent(_ key: Key, now: Int64) -> Bool {
        limiters.withLockedValue { $0.isSpent(key, now: now) }
    }
}
