import Testing

@testable import TypewireBench

/// How many descriptors a run asks the system for before it opens a socket.
@Suite("The bench's descriptor budget")
struct DescriptorBudgetTests {
    func options(_ scenario: BenchScenario, connections: Int, storm: Int = 0) -> BenchOptions {
        var options = BenchOptions(
            connections: connections, conversations: 100, members: 11, rate: 100, messageEvery: 10, typers: 1, warmup: 1,
            duration: 1, connectConcurrency: 10, sourceAddresses: 1, threads: 1, scenario: scenario, idle: false)
        options.storm = storm
        return options
    }

    @Test func outsideTheTailScenarioAProcessHoldsOneDescriptorPerSocket() {
        #expect(options(.connections, connections: 11_000).descriptorsHeld(byTargets: 2) == 11_000)
    }

    @Test func theTailScenarioHoldsEveryTargetsSocketsAtOnce() {
        #expect(options(.tail, connections: 1_100).descriptorsHeld(byTargets: 2) == 2_200)
    }

    /// 1 100 sockets and a storm of 8 000 for both targets, counted once per target (18 200), let a run start
    /// whose generator then held 20 000 descriptors, the limit here, during the storm: its dropped sockets were
    /// still closing while their replacements connected.
    @Test func aStormsDroppedSocketsCountOnceMoreWhileTheyClose() {
        #expect(options(.tail, connections: 1_100, storm: 8_000).descriptorsHeld(byTargets: 2) == 26_200)
        #expect(options(.tail, connections: 1_100, storm: 8_000).descriptorsHeld(byTargets: 1) == 17_100)
    }
}
