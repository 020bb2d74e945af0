import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Testing
import TypewireCore
import TypewireNATS
import TypewireServer
import TypewireTesting

/// `typewire serve` nodes on one PostgreSQL whose events travel through NATS (`--nats-url`), routed by
/// interest: what a node that follows nothing of a conversation hears of it (nothing), what a node that begins
/// following is told, and a NATS server of three killed under the cluster. What crosses nodes on either bus
/// is in ``ClusterTests``, whose suite these tests are in so that its clusters start one at a time.
extension ClusterTests {
    /// NATS servers (one by default) routed to each other as one NATS cluster, for the body's length.
    static func withNATS(servers count: Int = 1, _ body: ([NATSTestServer]) async throws -> Void) async throws {
        var servers = [try await NATSTestServer.start()]
        for _ in 1..<max(count, 1) { servers.append(try await NATSTestServer.start(routes: [servers[0].clusterPort])) }
        defer { for server in servers { Task { await server.kill() } } }
        try await body(servers)
    }

    /// `--nats-url tls://… --nats-tls-ca`: nodes reach a NATS server that takes only TLS, with credentials,
    /// and typing and messages cross; a node given no authority for its certificate is refused by it.
    @Test(.enabled(if: NATSTestServer.isEnabled, Comment(rawValue: NATSTestServer.skipReason)))
    func nodesReachANATSServerThatTakesOnlyTLSAndCheckItsCertificate() async throws {
        let certificates = try TestCertificates.make()
        let server = try await NATSTestServer.start(user: ("typewire", "s3cret"), tls: certificates)
        defer { Task { await server.kill() } }
        let url = "tls://typewire:s3cret@localhost:\(server.port)"
        try await withCluster(nodes: 2, bus: .nats([url]), extra: ["--nats-tls-ca", certificates.authority]) { nodes, _ in
            let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
            let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
            alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
            alice.send(.send(.init(conversation: Self.group, clientMessageId: "tls", text: "over TLS")))
            try await bob.next { if case .message(let m) = $0 { m.text == "over TLS" } else { false } }
        }
        try await withCluster(nodes: 1, bus: .nats([url])) { nodes, _ in
            try await eventually(within: .seconds(20)) {
                ((try? String(contentsOf: nodes[0].log, encoding: .utf8)) ?? "").contains("TLS with the NATS server failed")
            }
        }
    }

    /// The bus routes by interest: a node none of whose sockets follow a conversation hears none of its
    /// events. On LISTEN/NOTIFY it hears them all (which shows the counter counts what it should).
    @Test(.enabled(if: NATSTestServer.isEnabled, Comment(rawValue: NATSTestServer.skipReason)), arguments: [false, true])
    func aNodeThatFollowsNoConversationHearsNoneOfItsEvents(onNATS: Bool) async throws {
        try await Self.withNATS { nats in
            try await withCluster(nodes: 3, bus: onNATS ? .nats(nats.map(\.url)) : .notify) { nodes, _ in
                let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
                let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
                _ = try await nodes[2].subscribedSocket("carol", to: "bot-clawd-carol")  // busy with another conversation
                for round in 1...5 {
                    alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
                    try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
                    alice.send(.send(.init(conversation: Self.group, clientMessageId: "m\(round)", text: "round \(round)")))
                    try await bob.next { if case .message(let m) = $0 { m.text == "round \(round)" } else { false } }
                }
                let followerHeard = try await nodes[1].metric("typewire_cluster_events_received_total")
                let heard = try await nodes[2].metric("typewire_cluster_events_unfollowed_total")
                #expect(followerHeard >= 10, "Bob's node heard Alice's typing and messages")
                if onNATS {
                    #expect(heard == 0, "Carol's node follows nothing of the group and hears nothing of it")
                    #expect(try await nodes[2].metric("typewire_cluster_subjects") == 1, "one conversation followed")
                } else {
                    #expect(heard >= 10, "on LISTEN/NOTIFY every node hears every event")
                }
            }
        }
    }

    @Test(.enabled(if: NATSTestServer.isEnabled, Comment(rawValue: NATSTestServer.skipReason)))
    func aNodeThatBeginsFollowingIsToldWhatIsGoingOnAlready() async throws {
        try await Self.withNATS { nats in
            try await withCluster(nodes: 2, bus: .nats(nats.map(\.url))) { nodes, _ in
                let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
                alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
                try await eventually { try await nodes[0].metric("typewire_cluster_events_published_total") >= 2 }
                // Bob's node followed nothing of the group when Alice began: it asks as Bob subscribes.
                let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
                try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
            }
        }
    }

    /// One NATS server of three is killed: the nodes on it connect to another they learnt from it, and
    /// typing crosses again; the resync brings back what was going on. Liveness bounds; the figures are in
    /// docs/RELIABILITY.md.
    @Test(.enabled(if: NATSTestServer.isEnabled, Comment(rawValue: NATSTestServer.skipReason)))
    func aKilledNATSServerIsLeftForAnotherAndTypingCrossesAgain() async throws {
        try await Self.withNATS(servers: 3) { nats in
            try await withCluster(nodes: 3, bus: .nats(nats.map(\.url))) { nodes, _ in
                // Alice on the node connected to the server to be killed, Bob on another.
                // A node logs its NATS connection once made, which may come after it listens.
                func connectedToTheFirst(_ node: ServerProcess) -> Bool {
                    ((try? String(contentsOf: node.log, encoding: .utf8)) ?? "").contains("server=127.0.0.1:\(nats[0].port) ")
                }
                try await eventually { nodes.contains(where: connectedToTheFirst) }
                let onKilled = try #require(nodes.firstIndex(where: connectedToTheFirst))
                let alice = try await nodes[onKilled].subscribedSocket("alice", to: Self.group)
                let bob = try await nodes[(onKilled + 1) % 3].subscribedSocket("bob", to: Self.group)
                alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
                try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
                await nats[0].kill()
                let killed = ContinuousClock.now
                // Alice goes on typing (her app refreshes), until Bob sees her again.
                try await eventually(within: .seconds(15)) {
                    alice.send(.activity(.init(conversation: Self.group, activity: .none)))
                    alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
                    try await Task.sleep(for: .milliseconds(100))
                    let frames = await bob.received
                    guard let last = frames.lastIndex(where: { $0.contains(#""type":"activity""#) && !$0.contains(#""user":"alice""#) })
                    else { return false }
                    return frames[(last + 1)...].contains { $0.contains(#""type":"activity""#) && $0.contains(#""user":"alice""#) }
                }
                let resumed = ContinuousClock.now - killed
                print("typing crossed again \(resumed) after the NATS server was killed")
                bob.send(.send(.init(conversation: Self.group, clientMessageId: "after", text: "still here")))
                try await alice.next { if case .message(let m) = $0 { m.text == "still here" } else { false } }
                #expect(try String(contentsOf: nodes[onKilled].log, encoding: .utf8).contains("resyncing"))
            }
        }
    }

    @Test(.enabled(if: NATSTestServer.isEnabled, Comment(rawValue: NATSTestServer.skipReason)))
    func aForgedNATSMessageIsIgnored() async throws {
        try await Self.withNATS { nats in
            try await withCluster(nodes: 2, bus: .nats(nats.map(\.url))) { nodes, _ in
                let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
                let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
                // Anyone who can reach the NATS servers claims, for a made-up node, that Mallory joined the group.
                let forger = try NATSClient(
                    configuration: .init(servers: [try NATSServerAddress(url: nats[0].url)]), logger: Logger(label: "typewire.forger"))
                let running = Task { await forger.run() }
                defer { running.cancel() }
                let forged = #"forger c2lnbmF0dXJl [{"membership":{"conversation":"group-six","user":"mallory","added":true}}]"#
                try await eventually {
                    forger.publish(ByteBuffer(string: forged), to: "typewire.all")
                    try await Task.sleep(for: .milliseconds(50))
                    return try await nodes[1].metric("typewire_cluster_events_refused_total") > 0
                }
                try await Self.expectForgedMembershipIgnored(on: nodes[1], alice: alice, bob: bob)
            }
        }
    }

    @Test(.enabled(if: NATSTestServer.isEnabled, Comment(rawValue: NATSTestServer.skipReason)))
    func natsMessagesRecordedAndPublishedAgainAreRefused() async throws {
        try await Self.withNATS { nats in
            try await withCluster(nodes: 2, bus: .nats(nats.map(\.url))) { nodes, _ in
                let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
                let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
                // Anyone on the NATS network records what every node hears while Frank is removed and added back.
                let recorded = NIOLockedValueBox<[NATSMessage]>([])
                let recorder = try NATSClient(
                    configuration: .init(servers: [try NATSServerAddress(url: nats[0].url)]), logger: Logger(label: "typewire.recorder"),
                    onMessage: { message in recorded.withLockedValue { $0.append(message) } })
                let running = Task { await recorder.run() }
                defer { running.cancel() }
                _ = recorder.subscribe(to: "typewire.>")
                try await Task.sleep(for: .milliseconds(300))  // the subscription reaches the server; the count below is checked
                #expect(try await nodes[0].request("DELETE", "/v1/conversations/\(Self.group)/participants/frank", as: "alice") == 204)
                #expect(
                    try await nodes[0].request(
                        "POST", "/v1/conversations/\(Self.group)/participants", as: "alice", json: #"{"user":"frank"}"#)
                        == 204)
                alice.send(.send(.init(conversation: Self.group, clientMessageId: "secret", text: "The code is 4711")))
                try await bob.next { if case .message(let m) = $0 { m.text == "The code is 4711" } else { false } }
                try await eventually { recorded.withLockedValue { $0.count } >= 3 }
                let messages = recorded.withLockedValue { $0 }
                #expect(!messages.contains { String(buffer: $0.payload).contains("4711") }, "sealed")
                #expect(try await nodes[0].request("DELETE", "/v1/conversations/\(Self.group)/participants/frank", as: "alice") == 204)
                let replayedBefore = try await nodes[1].metric("typewire_cluster_events_replayed_total")
                for message in messages { _ = recorder.publish(message.payload, to: message.subject) }
                try await eventually {
                    try await nodes[1].metric("typewire_cluster_events_replayed_total") >= replayedBefore + Double(messages.count)
                }
                let frank = try await nodes[1].socket("frank")
                frank.send(.subscribe(.init(conversation: Self.group)))
                #expect(try await frank.error().code == .unknownConversation, "the replayed addition was not applied")
            }
        }
    }
}
