import Testing
import TypewireCore

@testable import TypewireServer

@Suite struct WebhookRetryPolicyTests {
    let policy = WebhookRetryPolicy(firstDelay: .seconds(1), maxDelay: .seconds(600), giveUpAfter: .seconds(24 * 3600))

    @Test func theWaitDoublesFromTheFirstDelayUpToTheLongest() {
        #expect(
            (1...12).map { policy.delay(afterAttempts: $0) } == [
                1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 600_000, 600_000,
            ])
        #expect(policy.delay(afterAttempts: 10_000) == 600_000, "no overflow however many attempts")
        #expect(policy.delay(afterAttempts: 0) == 1_000)
    }

    @Test func eachWaitIsJitteredInItsUpperHalf() {
        var generator = SplitMix64(seed: 7)
        var seen = Set<Int64>()
        for _ in 0..<1_000 {
            guard case .retry(let at) = policy.afterFailure(attempts: 3, createdAt: 0, now: 10_000, using: &generator) else {
                Issue.record("a young event is retried")
                return
            }
            #expect((12_000...14_000).contains(at))
            seen.insert(at)
        }
        #expect(seen.count > 100, "the waits are spread, not one value")
    }

    @Test func aDeliveryIsGivenUpWhenItsNextAttemptWouldPassTheLimit() {
        var generator = SplitMix64(seed: 1)
        let day: Int64 = 24 * 3_600 * 1_000
        #expect(policy.afterFailure(attempts: 30, createdAt: 0, now: day - 600_001, using: &generator) != .giveUp)
        #expect(policy.afterFailure(attempts: 30, createdAt: 0, now: day, using: &generator) == .giveUp)
        // Attempts at the longest wait, from the first failure until the day has passed: about 24 h / 10 min.
        var now: Int64 = 0
        var attempts = 0
        while case .retry(let at) = policy.afterFailure(attempts: attempts + 1, createdAt: 0, now: now, using: &generator) {
            attempts += 1
            now = at
        }
        #expect(now <= day)
        #expect((140...300).contains(attempts), "\(attempts) attempts")
    }
}
