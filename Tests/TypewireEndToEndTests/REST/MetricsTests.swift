import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

@Suite("typewire serve: /metrics", .timeLimit(.minutes(1)))
struct MetricsTests {
    /// The value of one sample line in Prometheus text, e.g. `typewire_connections 2`.
    func value(of sample: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }.flatMap { Double($0.split(separator: " ").last!) }
    }

    /// Alice and Bob connected, Bob following their conversation and seeing Alice type.
    func aliceTypingToBob(on server: TestServer) async throws -> (TestSocket, TestSocket) {
        let alice = try await server.socket("alice")
        let bob = try await server.socket("bob")
        bob.send(.subscribe(.init(conversation: "direct-alice-bob")))
        try await bob.next { if case .subscribed = $0 { true } else { false } }
        alice.send(.activity(.init(conversation: "direct-alice-bob", activity: .typing)))
        try await bob.activity(in: "direct-alice-bob") { !$0.isEmpty }
        return (alice, bob)
    }

    @Test func countsConnectionsFramesFanOutAndDrops() async throws {
        try await TestServer.run { server in
            let (alice, bob) = try await aliceTypingToBob(on: server)
            alice.sendRaw("nonsense")
            _ = try await alice.error()

            let metrics = try await server.request("GET", "/metrics", as: nil)
            #expect(metrics.status == 200)
            #expect(value(of: "typewire_connections", in: metrics.body) == 2)
            #expect(value(of: "typewire_subscriptions", in: metrics.body) == 1)
            #expect(value(of: #"typewire_frames_in_total{type="activity"}"#, in: metrics.body) == 1)
            #expect(value(of: #"typewire_frames_in_total{type="invalid"}"#, in: metrics.body) == 1)
            #expect(value(of: #"typewire_frames_out_total{type="welcome"}"#, in: metrics.body) == 2)
            #expect((value(of: "typewire_fanout_deliveries_total", in: metrics.body) ?? 0) >= 1)
            #expect(value(of: "typewire_relay_latency_seconds_count", in: metrics.body) == 1)
            #expect(!metrics.body.contains("typewire_stage_seconds"), "stage timings are off by default")

            bob.close()
            alice.close()
            let deadline = ContinuousClock.now + .seconds(10)
            var after = try await server.request("GET", "/metrics", as: nil)
            while value(of: "typewire_connections", in: after.body) != 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                after = try await server.request("GET", "/metrics", as: nil)
            }
            #expect(value(of: "typewire_connections", in: after.body) == 0, "nothing left behind after the sockets close")
            #expect(value(of: "typewire_subscriptions", in: after.body) == 0)
        }
    }

    @Test func withStageMetricsTheStagesAreTimed() async throws {
        try await TestServer.run(configure: { $0.stageMetrics = true }) { server in
            let (alice, bob) = try await aliceTypingToBob(on: server)

            let metrics = try await server.request("GET", "/metrics", as: nil)
            // The loops' lag probe is a timer of each loop (every 10 ms): its histogram is there; what it
            // records is in docs/BENCHMARKS.md ("Where the time goes"), not waited for here.
            #expect(value(of: "typewire_loop_lag_seconds_count", in: metrics.body) != nil)
            // Bob's subscribe and Alice's activity reached their conversation's shard.
            #expect((value(of: #"typewire_stage_seconds_count{stage="read_to_shard"}"#, in: metrics.body) ?? 0) >= 2)
            // Welcome, subscribed and the update were each flushed after being written.
            #expect((value(of: #"typewire_stage_seconds_count{stage="write_to_flush"}"#, in: metrics.body) ?? 0) >= 3)
            bob.close()
            alice.close()
        }
    }
}
