/// When a failed delivery is tried again, and when it is given up: a pure decision, tested without a clock.
///
/// The wait after the n-th failed attempt doubles from ``firstDelay`` up to ``maxDelay``, with full
/// jitter in its upper half (a wait of `d` becomes a random time in `d/2 ... d`), so a receiver that comes
/// back is not hit by every node's backlog in the same millisecond. A delivery whose event is older than
/// ``giveUpAfter`` when its next attempt would be due is given up (counted as failed).
public struct WebhookRetryPolicy: Sendable, Hashable {
    /// The wait after the first failed attempt. Default 1 s.
    public var firstDelay: Duration = .seconds(1)
    /// The longest wait between attempts. Default 10 minutes.
    public var maxDelay: Duration = .seconds(600)
    /// How long after its event a delivery is still tried. Default 24 hours.
    public var giveUpAfter: Duration = .seconds(24 * 3600)

    /// What to do after a failed attempt.
    public enum Decision: Sendable, Hashable {
        /// Try again at this time (milliseconds since 1970).
        case retry(at: Int64)
        /// Stop: the event is older than ``WebhookRetryPolicy/giveUpAfter`` by the next attempt.
        case giveUp
    }

    /// The defaults.
    public init() {}

    /// Creates a policy.
    public init(firstDelay: Duration, maxDelay: Duration, giveUpAfter: Duration) {
        self.firstDelay = firstDelay
        self.maxDelay = maxDelay
        self.giveUpAfter = giveUpAfter
    }

    /// The decision after `attempts` failed attempts (1 after the first) of an event made at `createdAt`,
    /// at `now` (both milliseconds since 1970).
    public func afterFailure<Generator: RandomNumberGenerator>(
        attempts: Int, createdAt: Int64, now: Int64, using generator: inout Generator
    ) -> Decision {
        let due = now + wait(afterAttempts: attempts, using: &generator)
        return due - createdAt > giveUpAfter.wholeMilliseconds ? .giveUp : .retry(at: due)
    }

    /// The wait after `attempts` failed attempts, in milliseconds: ``delay(afterAttempts:)`` jittered to a
    /// random time in its upper half.
    public func wait<Generator: RandomNumberGenerator>(afterAttempts attempts: Int, using generator: inout Generator) -> Int64 {
        let delay = delay(afterAttempts: attempts)
        return delay / 2 + Int64.random(in: 0...(delay - delay / 2), using: &generator)
    }

    /// The wait after `attempts` failed attempts before jitter, in milliseconds: ``firstDelay`` doubled
    /// `attempts - 1` times, at most ``maxDelay``.
    public func delay(afterAttempts attempts: Int) -> Int64 {
        let first = max(1, firstDelay.wholeMilliseconds)
        let ceiling = max(first, maxDelay.wholeMilliseconds)
        let doublings = min(max(0, attempts - 1), 62)
        let (doubled, overflow) = first.multipliedReportingOverflow(by: Int64(1) << doublings)
        return overflow ? ceiling : min(doubled, ceiling)
    }
}
