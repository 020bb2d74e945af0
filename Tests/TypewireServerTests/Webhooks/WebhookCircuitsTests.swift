import Testing
import TypewireCore

@testable import TypewireServer

@Suite struct WebhookCircuitsTests {
    let a = "http://a/hook"
    let b = "http://b/hook"
    var circuits = WebhookCircuits(retry: WebhookRetryPolicy(firstDelay: .seconds(1), maxDelay: .seconds(8), giveUpAfter: .seconds(3600)))
    var generator = SplitMix64(seed: 3)

    /// One attempt to `endpoint`, started and ended at `now`.
    mutating func attempt(_ endpoint: String, delivered: Bool, probe: Bool = false, at now: Int64) -> WebhookCircuits.Change? {
        circuits.started(endpoint)
        return circuits.ended(endpoint, delivered: delivered, probe: probe, now: now, using: &generator)
    }

    @Test mutating func fiveFailuresInARowOpenAnEndpointAndOnlyProbesGoToIt() throws {
        for time in 0..<4 { #expect(attempt(a, delivered: false, at: Int64(time)) == nil) }
        #expect(attempt(a, delivered: true, at: 4) == nil, "a delivery in between starts the count again")
        for time in 5..<9 { #expect(attempt(a, delivered: false, at: Int64(time)) == nil) }
        #expect(circuits.closed(of: [a, b]) == [a, b])
        #expect(attempt(a, delivered: false, at: 10) == .opened)
        #expect(circuits.closed(of: [a, b]) == [b], "the other endpoint is not held back")
        #expect(circuits.openCount == 1)

        let probeAt = try #require(circuits.nextProbe)
        #expect((510...1_010).contains(probeAt), "the first probe a jittered second after it opened")
        #expect(circuits.takeProbes(at: probeAt - 1).isEmpty)
        #expect(circuits.takeProbes(at: probeAt) == [a])
        #expect(circuits.takeProbes(at: probeAt + 10_000).isEmpty, "one probe at a time")
        #expect(circuits.nextProbe == nil)
    }

    @Test mutating func aFailedProbeWaitsTwiceAsLongAndADeliveredOneClosesTheCircuit() throws {
        for time in 0..<5 { _ = attempt(a, delivered: false, at: Int64(time)) }
        var waits: [Int64] = []
        var time: Int64 = 0
        for _ in 0..<5 {
            let probeAt = try #require(circuits.nextProbe)
            waits.append(probeAt - time)
            #expect(circuits.takeProbes(at: probeAt) == [a])
            time = probeAt
            #expect(attempt(a, delivered: false, probe: true, at: time) == nil)
            #expect(circuits.isOpen(a))
        }
        #expect((1_000...2_000).contains(waits[1]) && (2_000...4_000).contains(waits[2]) && (4_000...8_000).contains(waits[4]))
        let probeAt = try #require(circuits.nextProbe)
        #expect(circuits.takeProbes(at: probeAt) == [a])
        #expect(attempt(a, delivered: true, probe: true, at: probeAt) == .closed)
        #expect(!circuits.isOpen(a) && circuits.openCount == 0 && circuits.nextProbe == nil)
        for time in 0..<4 { #expect(attempt(a, delivered: false, at: probeAt + Int64(time)) == nil, "the count starts again") }
    }

    @Test mutating func aProbeWaitsForTheAttemptsUnderWayAndOneThatFindsNothingCloses() throws {
        circuits.started(a)  // an attempt from before the circuit opened, hanging until its timeout
        for time in 0..<5 { _ = attempt(a, delivered: false, at: Int64(time)) }
        let probeAt = try #require(circuits.nextProbe)
        #expect(circuits.takeProbes(at: probeAt).isEmpty, "not while an attempt to it is under way")
        #expect(circuits.ended(a, delivered: false, probe: false, now: probeAt, using: &generator) == nil)
        #expect(circuits.takeProbes(at: probeAt) == [a])
        circuits.probeNotClaimed(a)
        #expect(circuits.takeProbes(at: probeAt) == [a], "a probe the store could not claim is due again")
        circuits.probeFoundNothing(a)
        #expect(!circuits.isOpen(a), "nothing waits for it: the next delivery is the test")
    }
}
