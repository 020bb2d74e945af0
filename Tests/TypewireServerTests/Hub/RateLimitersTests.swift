import Testing

@testable import TypewireServer

@Suite("RateLimiters: a token bucket per key")
struct RateLimitersTests {
    @Test func eachUserHasABurstThenTheRate() {
        var budget = RateLimiters<String>(rate: 2, burst: 3)
        var carol: [Bool] = []
        for _ in 0..<4 { carol.append(budget.allow("carol", now: 0)) }
        #expect(carol == [true, true, true, false])
        let alice = budget.allow("alice", now: 0)
        #expect(alice, "another user's budget is untouched")
        carol = [budget.allow("carol", now: 499), budget.allow("carol", now: 500), budget.allow("carol", now: 500)]
        #expect(carol == [false, true, false], "one handshake back every 1/rate seconds")
    }

    @Test func askingWhetherABudgetIsSpentTakesNothing() {
        var budget = RateLimiters<String>(rate: 1, burst: 2)
        #expect(!budget.isSpent("carol", now: 0), "a user without a bucket has a full one")
        let first = budget.allow("carol", now: 0)
        let asked = (0..<10).map { _ in budget.isSpent("carol", now: 0) }
        let second = budget.allow("carol", now: 0)
        #expect(first && asked.allSatisfy { !$0 } && second, "the asking took none of the burst")
        #expect(budget.isSpent("carol", now: 999))
        #expect(!budget.isSpent("carol", now: 1_000), "one back after 1/rate seconds")
        let third = budget.allow("carol", now: 1_000)
        #expect(third && budget.isSpent("carol", now: 1_000))
    }

    @Test func bucketsThatRefilledAreForgottenWhenTheirNumberReachesTheMark() {
        var budget = RateLimiters<String>(rate: 1, burst: 2)
        for index in 0..<1_023 { _ = budget.allow("user-\(index)", now: 0) }
        let first = budget.allow("carol", now: 2_001)
        #expect(first && budget.count == 1_024)
        // Every bucket of time 0 is full again at 2 000: the next handshake prunes them; carol's stays.
        let second = budget.allow("carol", now: 2_001)
        #expect(second && budget.count == 1)
        let third = budget.allow("carol", now: 2_001)
        #expect(!third, "carol's burst is used up")
    }

    @Test func aTinyRateOrAHugeBurstPrunesWithoutTrapping() {
        // burst / rate in milliseconds is past Int64's range: before the clamp, the first prune trapped.
        for (rate, burst) in [(1e-300, 2.0), (1.0, 1e300), (Double.leastNonzeroMagnitude, 1)] {
            var budget = RateLimiters<String>(rate: rate, burst: burst)
            for index in 0..<1_100 { _ = budget.allow("user-\(index)", now: Int64(index)) }
            #expect(budget.count == 1_100, "nothing refilled, nothing forgotten (rate \(rate), burst \(burst))")
        }
    }

    @Test func aDurationPastInt64sMillisecondsIsClamped() {
        #expect(Duration.seconds(Int64.max).wholeMilliseconds == .max)
        #expect(Duration.seconds(Int64.min).wholeMilliseconds == .min)
        #expect(Duration.milliseconds(1_500).wholeMilliseconds == 1_500)
    }
}
