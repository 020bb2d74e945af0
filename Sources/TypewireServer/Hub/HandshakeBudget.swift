import Synchronization

/// How often each user may open a socket: a token bucket per user, so that one user reconnecting in a loop
/// costs a refusal, not the store reads and presence of a handshake each time. A pure value fed the
/// server's time.
///
/// A user's bucket is forgotten once it is full again (the user has not connected for `burst / rate`
/// seconds): the buckets kept are those of users who connected lately, pruned whenever their number has
/// doubled since the last pruning.
struct HandshakeBudget: Sendable {
    private let rate: Double
    private let burst: Double
    private var buckets: [String: RateLimiter] = [:]
    /// The number of buckets at which the next pruning runs.
    private var pruneAt = 1_024

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
    }

    /// How many users have a bucket now.
    var count: Int { buckets.count }

    /// Takes one handshake of the user's budget if there is one.
    /// - Returns: Whether the user may open a socket now.
    mutating func allow(_ user: String, now: Int64) -> Bool {
        if buckets.count >= pruneAt { prune(now: now) }
        return buckets[user, default: RateLimiter(rate: rate, burst: burst)].allow(now: now)
    }

    /// Whether the user's budget is spent now (a user without a bucket has a full one); takes nothing.
    func isSpent(_ user: String, now: Int64) -> Bool {
        buckets[user].map { !$0.hasToken(now: now) } ?? false
    }

    /// Forgets the buckets that have refilled: their users start from a full bucket again either way.
    private mutating func prune(now: Int64) {
        let refill = rate > 0 ? Int64((burst / rate * 1_000).rounded(.up)) : .max
        if refill != .max { buckets = buckets.filter { !$0.value.isIdle(since: now - refill) } }
        pruneAt = max(1_024, buckets.count * 2)
    }
}

/// The node's ``HandshakeBudget``, shared by the hub, which takes a handshake of a user's budget for each
/// verified `hello` it registers, and the sockets, which turn away a `hello` whose user's budget is spent
/// before its token is verified (an unverified claim can only be refused early, never charged).
final class HandshakeBudgets: Sendable {
    private let budget: Mutex<HandshakeBudget>

    init(rate: Double, burst: Double) {
        budget = Mutex(HandshakeBudget(rate: rate, burst: burst))
    }

    /// Takes one handshake of the user's budget if there is one (``HandshakeBudget/allow(_:now:)``).
    func allow(_ user: String, now: Int64) -> Bool {
        budget.withLock { $0.allow(user, now: now) }
    }

    /// Whether the user's budget is spent now (``HandshakeBudget/isSpent(_:now:)``).
    func isSpent(_ user: String, now: Int64) -> Bool {
        budget.withLock { $0.isSpent(user, now: now) }
    }
}
