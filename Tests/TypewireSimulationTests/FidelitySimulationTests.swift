import Testing
import TypewireCore

@testable import TypewireSimulation

@Suite("typewire simulate: the fidelity simulator")
struct FidelitySimulationTests {
    static let perfectNetwork = NetworkModel(delay: 0, jitter: 0, loss: 0, drop: 0)

    func events(_ steps: [(Int64, TypistAction)]) -> [TypistEvent] {
        steps.map { TypistEvent(time: $0.0, action: $0.1) }
    }

    @Test func truthIsAKeystrokeWithinTheIdleTimeoutAndNoSendSince() {
        let script = events([
            (1_000, .keystroke), (1_500, .keystroke), (2_000, .send),  // sent
            (10_000, .keystroke), (12_000, .keystroke),  // pause: ends 3 s after the last key
            (20_000, .keystroke), (20_100, .crash),  // a crash ends nothing by itself
            (30_000, .keystroke), (30_500, .clear), (40_000, .keystroke), (40_200, .leave),
        ])
        let truth = truthIntervals(of: script, idleTimeout: 3_000, duration: 60_000)
        #expect(
            truth == [
                Interval(start: 1_000, end: 2_000), Interval(start: 10_000, end: 15_000), Interval(start: 20_000, end: 23_000),
                Interval(start: 30_000, end: 30_500), Interval(start: 40_000, end: 40_200),
            ])
    }

    @Test func typewireOnAPerfectNetworkShowsExactlyTheTruth() {
        let script = events((0..<40).map { (Int64($0) * 250, .keystroke) } + [(10_000, .send), (20_000, .keystroke)])
        var random = SplitMix64(seed: 1)
        let timeline = IndicatorTimeline(
            policy: .typewire(), script: script, network: Self.perfectNetwork, duration: 60_000, random: &random
        )
        #expect(timeline.shown == truthIntervals(of: script, idleTimeout: 3_000, duration: 60_000))
        // Start, refreshes at 2, 4, 6 and 8 s, the stop at 10 s rides with the message;
        // start at 20 s, refresh at 22 s, idle stop at 23 s.
        #expect(timeline.framesSent == 8)
    }

    @Test func aCrashedSenderIsHiddenAtTheTTL() {
        let script = events([(0, .keystroke), (500, .keystroke), (600, .crash)])
        var random = SplitMix64(seed: 1)
        let timeline = IndicatorTimeline(
            policy: .typewire(refresh: 2_000, ttl: 4_500), script: script, network: Self.perfectNetwork, duration: 60_000,
            random: &random
        )
        #expect(timeline.shown == [Interval(start: 0, end: 4_500)])
    }

    @Test func theSeedsFixedStopHidesWhileTypingGoesOn() {
        let script = events((0..<40).map { (Int64($0) * 400, .keystroke) })
        var random = SplitMix64(seed: 1)
        let timeline = IndicatorTimeline(
            policy: .seedFixedStop(disconnectDetection: 30_000), script: script, network: Self.perfectNetwork, duration: 60_000,
            random: &random
        )
        // The timer stops typing at 3 s; the next key (3.2 s) starts it again: hidden for 200 ms, every 3.2 s.
        #expect(timeline.shown.first == Interval(start: 0, end: 3_000))
        #expect(timeline.shown.dropFirst().first == Interval(start: 3_200, end: 6_200))
    }

    @Test func tallyMeasuresAccuracyShowHideStaleAndFlicker() {
        var tally = FidelityTally()
        let truth = [Interval(start: 1_000, end: 5_000), Interval(start: 10_000, end: 12_000)]
        let shown = [
            Interval(start: 1_100, end: 3_000), Interval(start: 3_400, end: 5_200),  // a 400 ms gap while typing: flicker
            Interval(start: 10_000, end: 16_000),  // 4 s stale after the spell
        ]
        tally.record(truth: truth, shown: shown, framesSent: 6, duration: 20_000, flickerWindow: 1_000)
        #expect(tally.mismatchTime == 100 + 400 + 200 + 4_000)
        #expect(tally.flickers == 1)
        #expect(tally.longestStale == 4_000)
        #expect(tally.timeToShow.value(at: 1) == 100)
        #expect(tally.timeToShow.value(at: 0.5) == 0)
        #expect(tally.timeToHide.value(at: 1) == 4_000)
        #expect(tally.typingTime == 6_000)
        #expect(tally.missedSpells == 0)
    }

    @Test func aHideThatEchoesARealStopIsNotAFlicker() {
        var tally = FidelityTally()
        // Typing stopped at 5 000 and began again at 5 050; the stop arrived at 5 080, the new start at 5 130.
        let truth = [Interval(start: 1_000, end: 5_000), Interval(start: 5_050, end: 9_000)]
        let shown = [Interval(start: 1_080, end: 5_080), Interval(start: 5_130, end: 9_080)]
        tally.record(truth: truth, shown: shown, framesSent: 4, duration: 10_000, flickerWindow: 1_000)
        #expect(tally.flickers == 0)
    }

    @Test func theSameSeedGivesTheSameFiguresHoweverTheWorkIsSplit() {
        let simulation = FidelitySimulation(configuration: .init(hours: 4, seed: 7))
        let whole = simulation.simulate(hours: 0..<4)
        var split = simulation.simulate(hours: [0, 2])
        for (index, part) in simulation.simulate(hours: [1, 3]).enumerated() { split[index].merge(part) }
        for (lhs, rhs) in zip(whole, split) {
            #expect(lhs.mismatchTime == rhs.mismatchTime)
            #expect(lhs.framesSent == rhs.framesSent)
            #expect(lhs.flickers == rhs.flickers)
            #expect(lhs.timeToShow.counts == rhs.timeToShow.counts)
        }
        let other = FidelitySimulation(configuration: .init(hours: 4, seed: 8)).simulate(hours: 0..<4)
        #expect(other.map(\.framesSent) != whole.map(\.framesSent), "another seed, other scripts")
    }

    @Test(.timeLimit(.minutes(1)))
    func typewiresDefaultsMeetTheFidelityGoals() async throws {
        let results = await FidelitySimulation(configuration: .init(hours: 100, seed: 42)).run()
        let ours = try #require(results.last)
        #expect(ours.policy.hasPrefix("typewire"))
        #expect(ours.accuracy > 0.99)
        #expect(ours.longestStale <= 5_000)
        #expect(ours.flickers == 0)
        for seed in results.prefix(3) {
            #expect(ours.framesPerTypingMinute < seed.framesPerTypingMinute, "fewer frames than \(seed.policy)")
        }
    }
}
