/// A token bucket's setting: `burst` at once, refilled at `rate` per second.
public struct RateBudget: Sendable, Hashable {
    /// Allowed per second, sustained.
    public var rate: Double
    /// Allowed at once, before ``rate`` applies.
    public var burst: Double

    /// Creates a budget of `burst` at once and `rate` a second after.
    public init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
    }
}
