import Synchronization

/// How often each user may open a socket: a token bucket per user, so that one user reconnecting in a loop
/// costs a refusal, not the store reads and presence of a handshake each time.
typealias HandshakeBudget = RateLimiters<String>

/// The node's ``HandshakeBudget``, shared by the hub, which takes a handshake of a user's budget for each
/// verified `hello` it registers, and the sockets, which turn away a `hello` whose user's budget is spent
/// before its token is verified (an unverified claim can only be refused early, never charged).
final class HandshakeBudgets: Sendable {
    private let budget: Mutex<HandshakeBudget>

    init(rate: Double, burst: Double) {
        budget = Mutex(HandshakeBudget(rate: rate, burst: burst))
    }

    /// Takes one handshake of the user's budget if there is one (``RateLimiters/allow(_:now:)``).
    func allow(_ user: String, now: Int64) -> Bool {
        budget.withLock { $0.allow(user, now: now) }
    }

    /// Whether the user's budget is spent now (``RateLimiters/isSpent(_:now:)``).
    func isSpent(_ user: String, now: Int64) -> Bool {
        budget.withLock { $0.isSpent(user, now: now) }
    }
}
