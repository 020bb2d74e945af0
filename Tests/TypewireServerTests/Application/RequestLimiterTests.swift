import Testing

@testable import TypewireServer

@Suite("RequestLimiter: REST requests per user")
struct RequestLimiterTests {
    @Test func eachUserHasABucketOfTheirOwn() {
        let limiter = RequestLimiter(rate: 1, burst: 2)
        #expect(limiter.allow("alice", now: 0))
        #expect(limiter.allow("alice", now: 0))
        #expect(!limiter.allow("alice", now: 0))
        #expect(limiter.allow("bob", now: 0), "Alice's requests cost Bob nothing")
        #expect(limiter.allow("alice", now: 1_000), "refilled at the rate")
    }

    @Test func idleUsersAreForgottenAndStartWithAFullBucket() {
        let limiter = RequestLimiter(rate: 1, burst: 2)
        #expect(limiter.allow("alice", now: 0))
        #expect(limiter.allow("alice", now: 0))
        #expect(limiter.allow("alice", now: 120_000))
        #expect(limiter.allow("alice", now: 120_000))
    }
}
