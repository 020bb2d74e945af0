/// A token bucket: `burst` frames at once, refilled at `rate` per second. A pure value fed the server's
/// time in milliseconds.
struct RateLimiter: Sendable {
    /// Frames allowed per second, sustained.
    let rate: Double
    /// Frames allowed at once.
    let burst: Double
    private var tokens: Double
    private var updatedAt: Int64?

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        self.tokens = burst
    }

    /// A full bucket of the budget.
    init(_ budget: RateBudget) {
        self.init(rate: budget.rate, burst: budget.burst)
    }

    /// Takes one token if there is one.
    /// - Returns: Whether the frame may pass.
    mutating func allow(now: Int64) -> Bool {
        tokens = tokens(at: now)
        updatedAt = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Whether a frame would pass now, without taking a token.
    func hasToken(now: Int64) -> Bool {
        tokens(at: now) >= 1
    }

    /// The tokens the bucket holds at `now`, refilled since the last frame.
    private func tokens(at now: Int64) -> Double {
        guard let updatedAt else { return tokens }
        return min(burst, tokens + Double(max(0, now - updatedAt)) * rate / 1_000)
    }

    /// Whether no frame came since `time` (the bucket has been refilling since).
    func isIdle(since time: Int64) -> Bool {
        (updatedAt ?? .min) < time
    }

    /// Gives back a token taken for something that turned out not to count.
    mutating func refund() {
        tokens = min(burst, tokens + 1)
    }
}
