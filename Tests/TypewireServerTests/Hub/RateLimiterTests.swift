import Testing

@testable import TypewireServer

@Suite("RateLimiter: a token bucket")
struct RateLimiterTests {
    @Test func allowsABurstThenTheRate() {
        var limiter = RateLimiter(rate: 10, burst: 5)
        let burst = (0..<8).map { _ in limiter.allow(now: 0) }
        #expect(burst == [true, true, true, true, true, false, false, false])
        let at99 = limiter.allow(now: 99)
        #expect(!at99, "less than one token after 99 ms at 10/s")
        let at100 = limiter.allow(now: 100)
        #expect(at100)
        let again = limiter.allow(now: 100)
        #expect(!again)
    }

    @Test func refillsNoMoreThanTheBurst() {
        var limiter = RateLimiter(rate: 10, burst: 3)
        _ = limiter.allow(now: 0)
        let later = (0..<5).map { _ in limiter.allow(now: 60_000) }
        #expect(later == [true, true, true, false, false])
    }

    @Test func aClockGoingBackwardsAddsNothing() {
        var limiter = RateLimiter(rate: 1_000, burst: 1)
        let first = limiter.allow(now: 1_000)
        let backwards = limiter.allow(now: 500)
        #expect(first && !backwards)
    }
}
