import Testing
import TypewireCore

@Suite struct ClientConfigurationTests {
    @Test func aClientTakesIntervalsOnlyBetweenHalfASecondAndAMinute() {
        func clamped(_ value: Int64?) -> ServerFrame.ClientConfiguration {
            ServerFrame.ClientConfiguration(
                activityTTL: 4_800, refreshInterval: value ?? 2_000, idleTimeout: value ?? 3_000, pingInterval: value
            ).clampedForClients
        }
        for (given, taken) in [
            (Int64(0), Int64(500)), (-1, 500), (.min, 500), (100, 500), (1_500, 1_500), (86_400_000, 60_000), (.max, 60_000),
        ] {
            let configuration = clamped(given)
            #expect(
                configuration.pingInterval == taken && configuration.refreshInterval == taken && configuration.idleTimeout == taken,
                "\(given)")
        }
        #expect(clamped(nil).pingInterval == nil, "no ping interval given: the client chooses")
        #expect(clamped(100).activityTTL == 4_800, "the ttl is the server's to keep, not the client's to use")
    }
}
