import Foundation
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// Three `typewire serve` processes on one PostgreSQL database, with users spread over them.
///
/// One test at a time: each starts two or three server processes, which would otherwise all start at
/// once and take both cores from every other suite for seconds.
@Suite(
    "Cluster: three nodes on PostgreSQL, their events on LISTEN/NOTIFY or NATS",
    .enabled(if: TestDatabase.serverURL != nil, Comment(rawValue: TestDatabase.skipReason)),
    .serialized, .timeLimit(.minutes(2))
)
struct ClusterTests {
    static let group = "group-six"

    @Test(arguments: Bus.available)
    func typingPresenceAndMessagesCrossNodesAndAReceiverSeesTheStopBeforeTheMessage(bus: Bus) async throws {
        try await withCluster(nodes: 3, on: bus) { nodes, _ in
            let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
            let carol = try await nodes[2].subscribedSocket("carol", to: Self.group)
            let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
            for watcher in [bob, carol] {
                try await watcher.next { if case .presence(let p) = $0 { p.user == "alice" && p.online } else { false } }
            }
            alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
            for watcher in [bob, carol] {
                try await watcher.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
            }
            alice.send(.send(.init(conversation: Self.group, clientMessageId: "c1", text: "Picnic at noon?")))
            for watcher in [bob, carol] {
                try await watcher.next { if case .message(let m) = $0 { m.text == "Picnic at noon?" } else { false } }
                let frames = await watcher.received
                let message = try #require(frames.lastIndex { $0.contains("Picnic at noon?") })
                let isStop: (String) -> Bool = { frame in
                    frame.contains(#""type":"activity""#) && !frame.contains(#""user":"alice""#)
                }
                let stop = frames.indices.last { isStop(frames[$0]) }
                #expect(stop.map { $0 < message } == true, "the stop arrived before the message: \(frames)")
            }
            // Presence: her last socket closes, and the other nodes turn her offline.
            alice.close()
            for watcher in [bob, carol] {
                try await watcher.next { if case .presence(let p) = $0 { p.user == "alice" && !p.online } else { false } }
            }
        }
    }

    @Test(arguments: Bus.available)
    func presenceHiddenOrBlockedThroughOneNodeIsHiddenOnTheOthers(bus: Bus) async throws {
        try await withCluster(nodes: 3, on: bus) { nodes, _ in
            let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
            let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
            let erin = try await nodes[0].subscribedSocket("erin", to: Self.group)
            func presence(_ user: String, _ online: Bool) -> @Sendable (ServerFrame) -> Bool {
                { if case .presence(let p) = $0 { p.user == user && p.online == online } else { false } }
            }
            for user in ["alice", "erin"] { try await bob.next(where: presence(user, true)) }
            #expect(try await nodes[2].serverAPI("/users/alice/presence").contains(#""online":true"#), "the server API of another node")
            // Through a third node's REST API: Alice shares her presence with nobody, Erin blocks Bob.
            #expect(try await nodes[2].request("PUT", "/v1/settings", as: "alice", json: #"{"sharePresence":false}"#) == 200)
            try await bob.next(where: presence("alice", false))
            #expect(try await nodes[1].serverAPI("/users/alice/presence").contains(#""online":false"#))
            #expect(try await nodes[2].request("PUT", "/v1/blocks/bob", as: "erin") == 204)
            try await bob.next(where: presence("erin", false))
            erin.send(.activity(.init(conversation: Self.group, activity: .typing)))
            alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }  // her typing is still shared
            let seen = await bob.received
            #expect(!seen.contains { $0.contains(#""type":"activity""#) && $0.contains(#""user":"erin""#) }, "no typing of the blocker")
        }
    }

    @Test(arguments: Bus.available)
    func aRemovalOnOneNodeEndsTheSubscriptionAndTypingOnTheOthers(bus: Bus) async throws {
        // A ttl of a minute: Bob's typing leaves Carol's view by the removal, not by expiry.
        try await withCluster(nodes: 3, on: bus, extra: ["--activity-ttl", "60000"]) { nodes, _ in
            let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
            let carol = try await nodes[2].subscribedSocket("carol", to: Self.group)
            bob.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await carol.activity(in: Self.group) { $0.map(\.user) == ["bob"] }
            // Alice created the group; she removes Bob through the first node's REST API.
            #expect(try await nodes[0].request("DELETE", "/v1/conversations/\(Self.group)/participants/bob", as: "alice") == 204)
            let notice = try await bob.error()
            #expect(notice.code == .unknownConversation && notice.ref == Self.group)
            try await carol.activity(in: Self.group) { $0.isEmpty }
            bob.send(.activity(.init(conversation: Self.group, activity: .typing)))
            #expect(try await bob.error().code == .unknownConversation, "his node knows he is out")
        }
    }

    @Test(arguments: Bus.available)
    func aKilledNodesUsersStopTypingAndGoOfflineOnTheOthers(bus: Bus) async throws {
        try await withCluster(nodes: 3, on: bus) { nodes, _ in
            let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
            let carol = try await nodes[2].subscribedSocket("carol", to: Self.group)
            carol.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["carol"] }
            await nodes[2].kill()
            // Nothing tells the others: her typing goes by its ttl (4.8 s), she goes offline when the node
            // misses its heartbeats (3 s). The bounds are for liveness; the times are in RELIABILITY.md.
            try await bob.activity(in: Self.group, within: .seconds(20)) { $0.isEmpty }
            try await bob.next(within: .seconds(20)) { if case .presence(let p) = $0 { p.user == "carol" && !p.online } else { false } }
        }
    }

    /// Dave types in 16 threads from 4 sockets under a 600-byte name: his node's slice was 12 KB, over
    /// NOTIFY's limit, and was dropped whole, so Alice's stop (and anyone's typing there) no longer crossed.
    @Test func oneMemberTypingInManyThreadsUnderALongNameCannotSilenceTheConversationOnTheOtherNodes() async throws {
        // A ttl of a minute: only a slice that crossed can clear Alice's typing within the bound.
        try await withCluster(nodes: 2, extra: ["--activity-ttl", "60000"]) { nodes, _ in
            let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
            let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
            var threads: [String] = []
            for index in 0..<16 {
                alice.send(.send(.init(conversation: Self.group, clientMessageId: "t\(index)", text: "topic \(index)")))
                let ack = try await alice.next { if case .ack(let ack) = $0 { ack.clientMessageId == "t\(index)" } else { false } }
                guard case .ack(let ack) = ack else { return }
                threads.append(ack.messageId)
            }
            alice.send(.activity(.init(conversation: Self.group, activity: .typing)))
            try await bob.activity(in: Self.group) { $0.map(\.user) == ["alice"] }
            let name = String(repeating: "名", count: 200)
            var daves: [TestSocket] = []
            for index in 0..<4 {
                let dave = try await nodes[0].subscribedSocket("dave", name: name, to: Self.group)
                for thread in threads[(index * 4)..<(index * 4 + 4)] {
                    dave.send(.activity(.init(conversation: Self.group, activity: .typing, thread: thread)))
                }
                daves.append(dave)
            }
            let crowded = try await bob.activity(in: Self.group) { $0.filter { $0.user == "dave" }.count >= 3 }
            #expect(crowded.entries.first?.user == "alice", "the first to start is listed first")
            #expect(crowded.total == 2, "two users, however many threads: \(crowded.total)")
            alice.send(.activity(.init(conversation: Self.group, activity: .none)))
            try await bob.activity(in: Self.group, within: .seconds(10)) { !$0.contains { $0.user == "alice" } }
            #expect(try await nodes[0].metric("typewire_cluster_events_too_large_total") == 0)
            _ = daves
        }
    }

    @Test func messagesTooLongForNotifyTravelByIdAndArriveWhole() async throws {
        try await withCluster(nodes: 2) { nodes, _ in
            let bob = try await nodes[1].subscribedSocket("bob", to: "direct-alice-bob")
            let alice = try await nodes[0].socket("alice")
            let long = String(repeating: "typing indicators ", count: 500)  // 9 000 bytes: over NOTIFY's 8 000
            let escaped = String(repeating: "\"\n", count: 2_900)  // 5 800 bytes, 11 600 once escaped in JSON
            for (id, text) in [("long", long), ("escaped", escaped)] {
                alice.send(.send(.init(conversation: "direct-alice-bob", clientMessageId: id, text: text)))
                let frame = try await bob.next { if case .message(let m) = $0 { m.clientMessageId == id } else { false } }
                guard case .message(let message) = frame else { return }
                #expect(message.text == text)
            }
        }
    }

    @Test func aForgedNotifyOnTheChannelIsIgnored() async throws {
        try await withCluster(nodes: 2) { nodes, postgresURL in
            let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
            let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
            // Anyone who can reach the database claims, for a made-up node, that Mallory joined the group.
            let forged = #"forger {"membership":{"conversation":"group-six","user":"mallory","added":true}}"#
            try await TestDatabase.execute("SELECT pg_notify('typewire_cluster', '\(forged)')", on: postgresURL)
            try await Self.expectForgedMembershipIgnored(on: nodes[1], alice: alice, bob: bob)
        }
    }

    @Test func notificationsReplayedFromTheChannelAreRefusedAndItsTextIsUnreadable() async throws {
        try await withCluster(nodes: 2) { nodes, postgresURL in
            let bob = try await nodes[1].subscribedSocket("bob", to: Self.group)
            let alice = try await nodes[0].subscribedSocket("alice", to: Self.group)
            // A role that may only connect records the channel while Frank is removed, added back and Alice
            // writes, then Frank is removed again.
            let recorded = try await TestDatabase.notifications(
                on: "typewire_cluster", of: postgresURL,
                during: {
                    #expect(try await nodes[0].request("DELETE", "/v1/conversations/\(Self.group)/participants/frank", as: "alice") == 204)
                    #expect(
                        try await nodes[0].request(
                            "POST", "/v1/conversations/\(Self.group)/participants", as: "alice", json: #"{"user":"frank"}"#) == 204)
                    alice.send(.send(.init(conversation: Self.group, clientMessageId: "secret", text: "The code is 4711")))
                    try await bob.next { if case .message(let m) = $0 { m.text == "The code is 4711" } else { false } }
                },
                until: { $0.count >= 3 })
            #expect(recorded.count >= 3, "the removal, the addition and the message: \(recorded)")
            #expect(!recorded.contains { $0.contains("4711") || $0.contains("frank") || $0.contains("alice") }, "sealed: \(recorded)")
            #expect(try await nodes[0].request("DELETE", "/v1/conversations/\(Self.group)/participants/frank", as: "alice") == 204)
            let replayedBefore = try await nodes[1].metric("typewire_cluster_events_replayed_total")
            for payload in recorded {
                try await TestDatabase.execute("SELECT pg_notify('typewire_cluster', '\(payload)')", on: postgresURL)
            }
            try await eventually {
                try await nodes[1].metric("typewire_cluster_events_replayed_total") >= replayedBefore + Double(recorded.count)
            }
            let frank = try await nodes[1].socket("frank")
            frank.send(.subscribe(.init(conversation: Self.group)))
            #expect(try await frank.error().code == .unknownConversation, "the replayed addition was not applied")
            #expect(try String(contentsOf: nodes[1].log, encoding: .utf8).contains("heard before was dropped"))
        }
    }

    /// After a forged event said Mallory joined the group: a real event from Alice reaches Bob (so Bob's node
    /// has heard the forged one before it), Mallory still may not subscribe, and the node logged the forgery.
    static func expectForgedMembershipIgnored(on node: ServerProcess, alice: TestSocket, bob: TestSocket) async throws {
        alice.send(.activity(.init(conversation: group, activity: .typing)))
        try await bob.activity(in: group) { $0.map(\.user) == ["alice"] }
        let mallory = try await node.socket("mallory")
        mallory.send(.subscribe(.init(conversation: group)))
        #expect(try await mallory.error().code == .unknownConversation, "the forged membership was not applied")
        #expect(try String(contentsOf: node.log, encoding: .utf8).contains("not sealed with this cluster's key"))
    }

    @Test func aStalledNodeIsTakenForDeadThenClosesItsSocketsSoItsClientsResync() async throws {
        try await withCluster(nodes: 2) { nodes, _ in
            let bob = try await nodes[0].subscribedSocket("bob", to: Self.group)
            let carol = try await nodes[1].subscribedSocket("carol", to: Self.group)
            try await bob.next { if case .presence(let p) = $0 { p.user == "carol" && p.online } else { false } }
            nodes[1].pause(true)
            try await bob.next(within: .seconds(20)) { if case .presence(let p) = $0 { p.user == "carol" && !p.online } else { false } }
            nodes[1].pause(false)
            // Back, it finds its heartbeat row gone: it closes its sockets so that clients reconnect.
            try await eventually { await carol.isClosed }
            #expect(await carol.closedGoingAway)
        }
    }

    @Test(arguments: Bus.available)
    func messagesSentAroundAKillAreStoredExactlyOnce(bus: Bus) async throws {
        try await withCluster(nodes: 3, on: bus) { nodes, postgresURL in
            let dave = try await nodes[2].socket("dave")
            let ids = (1...20).map { "around-the-kill-\($0)" }  // within the burst of the message rate limit
            for (index, id) in ids.enumerated() {
                dave.send(.send(.init(conversation: Self.group, clientMessageId: id, text: id)))
                if index == 9 { await nodes[2].kill() }
            }
            // Dave's app reconnects to another node and sends again everything not acknowledged; here,
            // everything, since a retry of a stored message stores nothing new.
            let acked = Set(
                await dave.received.compactMap { text -> String? in
                    guard case .ack(let ack)? = try? FrameCodec.decodeServerFrame(Data(text.utf8)) else { return nil }
                    return ack.clientMessageId
                })
            let again = try await nodes[0].socket("dave")
            for id in ids { again.send(.send(.init(conversation: Self.group, clientMessageId: id, text: id))) }
            for id in ids {
                try await again.next { if case .ack(let ack) = $0 { ack.clientMessageId == id } else { false } }
            }
            let store = try await PostgresChatStore.open(url: postgresURL)
            let history = try await store.messages(of: Self.group, before: nil, limit: 200)
            await store.close()
            for id in ids { #expect(history.filter { $0.clientMessageId == id }.count == 1, "\(id) stored once") }
            #expect(acked.isSubset(of: Set(history.compactMap(\.clientMessageId))), "no acknowledged message lost")
        }
    }
}
