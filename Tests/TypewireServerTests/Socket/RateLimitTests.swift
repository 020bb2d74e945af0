import Testing
import TypewireCore
import TypewireServer

@Suite("typewire serve: rate limits", .timeLimit(.minutes(1)))
struct RateLimitTests {
    static let group = "group-six"

    @Test func aFloodIsLimitedAndOthersStillGetTheirUpdates() async throws {
        try await TestServer.run { server in
            let flooder = try await server.socket("alice")
            let carol = try await server.socket("carol")
            let bob = try await server.subscribedSocket("bob", to: Self.group)
            for _ in 0..<1_000 { flooder.send(.activity(.init(conversation: Self.group, activity: .typing))) }
            let refusal = try await flooder.error()
            #expect(refusal.code == .rateLimited)
            carol.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await bob.activity(in: Self.group, within: .seconds(1)) { $0.contains { $0.user == "carol" } }
            let fannedOut = await bob.received.filter { $0.contains(#""type":"activity""#) }.count
            #expect(fannedOut <= Int(server.configuration.activityBurst) + 5, "the excess was dropped, not fanned out (\(fannedOut))")
        }
    }

    @Test func sustainedAbuseClosesTheSocket() async throws {
        try await TestServer.run(configure: { $0.abuseThreshold = 50 }) { server in
            let flooder = try await server.socket("alice")
            for _ in 0..<200 { flooder.send(.activity(.init(conversation: Self.group, activity: .typing))) }
            let deadline = ContinuousClock.now + .seconds(2)
            while !(await flooder.isClosed), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await flooder.isClosed)
        }
    }
}
