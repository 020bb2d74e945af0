/// Exponential backoff with jitter: the wait before reconnect attempt `n` (from 1) is a random share of
/// `min(maximum, initial × 2^(n-1))`, at least `1 - jitter` of it, so that many clients dropped at once do
/// not come back at once.
public struct Backoff: Sendable, Hashable {
    /// The wait before the first retry (before jitter). Default 250 ms.
    public var initial: Duration
    /// The longest wait. Default 15 s.
    public var maximum: Duration
    /// The share of the wait that is random, 0...1. Default 0.5.
    public var jitter: Double

    /// Creates a backoff.
    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(15), jitter: Double = 0.5) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = min(1, max(0, jitter))
    }

    /// The wait before attempt `attempt` (1 for the first retry).
    public func delay(attempt: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(maximum, initial * (1 << exponent))
        let share = 1 - jitter * Double.random(in: 0...1, using: &random)
        return ceiling * share
    }
}
