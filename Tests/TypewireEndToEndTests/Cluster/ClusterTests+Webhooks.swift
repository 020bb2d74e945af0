import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

extension ClusterTests {
    /// Two nodes claim from one outbox: every event reaches the backend, and none twice.
    @Test func twoNodesDeliverEachEventOnce() async throws {
        let receiver = WebhookReceiver()
        try await receiver.serve { url in
            // Attempts time out after 1 s, so a claim's lease is 7 s (twice that and 5 s): the check below waits
            // past one, when a delivery the other node claimed again would have arrived too.
            let extra = ["--webhook-url", url, "--webhook-secret", "cluster-webhook-secret-0123456789abcdef", "--webhook-timeout", "1000"]
            try await withCluster(nodes: 2, extra: extra) { nodes, _ in
                let alice = try await nodes[0].socket("alice")
                let bob = try await nodes[1].socket("bob")
                for index in 0..<20 {
                    alice.send(.send(.init(conversation: Self.group, clientMessageId: "a\(index)", text: "from alice \(index)")))
                    bob.send(.send(.init(conversation: Self.group, clientMessageId: "b\(index)", text: "from bob \(index)")))
                }
                let deadline = ContinuousClock.now + .seconds(30)
                while receiver.takenEvents.filter({ $0.type == "message.created" }).count < 40, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                try await Task.sleep(for: .seconds(8))
                let created = receiver.deliveries.filter { $0.type == "message.created" }
                #expect(created.count == 40, "40 messages, 40 deliveries: \(created.count)")
                #expect(Set(created.compactMap(\.id)).count == created.count, "no event was sent twice")
                let texts = Set(created.compactMap { ($0.data["message"] as? [String: Any])?["text"] as? String })
                #expect(texts == Set((0..<20).flatMap { ["from alice \($0)", "from bob \($0)"] }))
                var delivered = 0.0
                for node in nodes { delivered += try await node.metric("typewire_webhook_delivered_total") }
                #expect(Int(delivered) == receiver.deliveries.count, "the nodes' counts add up to what arrived")
            }
        }
    }
}
