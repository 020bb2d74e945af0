import Testing
import TypewireCore
import TypewireTesting

extension ClusterTests {
    /// Bob reads on one node; Alice, following the conversation's read state on another, gets his mark, his
    /// phone there his unread count, and Erin, who blocked him on a third, nothing of his.
    @Test(arguments: Bus.available)
    func aReadOnOneNodeReachesTheMembersFollowingReadStateOnTheOthers(bus: Bus) async throws {
        try await withCluster(nodes: 3, on: bus) { nodes, _ in
            #expect(try await nodes[2].request("PUT", "/v1/blocks/bob", as: "erin") == 204)
            let alice = try await nodes[0].socket("alice")
            alice.send(.subscribe(.init(conversation: Self.group, readState: true)))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
            let erin = try await nodes[2].socket("erin")
            erin.send(.subscribe(.init(conversation: Self.group, readState: true)))
            try await erin.next { if case .subscribed = $0 { true } else { false } }
            alice.send(.send(.init(conversation: Self.group, clientMessageId: "r1", text: "Lunch?")))
            let ack = try await alice.next { if case .ack = $0 { true } else { false } }
            guard case .ack(let stored) = ack else { return }

            let bobsPhone = try await nodes[0].socket("bob")
            bobsPhone.send(.subscribe(.init(conversation: Self.group, readState: true)))
            try await bobsPhone.next { if case .subscribed(let subscribed) = $0 { subscribed.unread == 1 } else { false } }
            let bob = try await nodes[1].socket("bob")
            bob.send(.read(.init(conversation: Self.group, messageId: stored.messageId)))
            let counted = try await bobsPhone.next { if case .unread = $0 { true } else { false } }
            #expect(
                counted == .unread(.init(conversation: Self.group, messageId: stored.messageId, count: 0)), "his phone, on another node")
            let seen = try await alice.next { if case .receipts = $0 { true } else { false } }
            guard case .receipts(let receipts) = seen else { return }
            #expect(receipts.conversation == Self.group && receipts.reads.map(\.user) == ["bob"])
            #expect(receipts.reads.first?.messageId == stored.messageId)
            // Erin learns of a later reader, never of Bob.
            let carol = try await nodes[1].socket("carol")
            carol.send(.read(.init(conversation: Self.group, messageId: stored.messageId)))
            try await erin.next { if case .receipts(let receipts) = $0 { receipts.reads.map(\.user) == ["carol"] } else { false } }
            #expect(await !erin.received.contains { $0.contains(#""type":"receipts""#) && $0.contains(#""bob""#) })
        }
    }

    /// A group past the cap of named readers (50) in a cluster: a read on one node reaches the followers on
    /// another as counts, which that node reads from the store.
    @Test(arguments: Bus.available)
    func aLargeGroupsReadersAreCountedOnEveryNode(bus: Bus) async throws {
        try await withCluster(nodes: 2, on: bus) { nodes, _ in
            for index in 1...45 {
                let added = try await nodes[0].request(
                    "POST", "/v1/conversations/\(Self.group)/participants", as: "alice", json: #"{"user":"member-\#(index)"}"#)
                #expect(added == 201 || added == 204, "added member-\(index): \(added)")
            }
            let alice = try await nodes[0].socket("alice")
            alice.send(.subscribe(.init(conversation: Self.group, readState: true)))
            try await alice.next { if case .subscribed(let subscribed) = $0 { subscribed.readCounts != nil } else { false } }
            alice.send(.send(.init(conversation: Self.group, clientMessageId: "big-1", text: "All hands")))
            let ack = try await alice.next { if case .ack = $0 { true } else { false } }
            guard case .ack(let stored) = ack else { return }

            for reader in ["bob", "member-7"] {
                let socket = try await nodes[1].socket(reader)
                socket.send(.read(.init(conversation: Self.group, messageId: stored.messageId)))
            }
            let counted = try await alice.next {
                if case .receipts(let receipts) = $0 { receipts.readCounts?.first?.readers == 2 } else { false }
            }
            #expect(
                counted
                    == .receipts(.init(conversation: Self.group, reads: [], readCounts: [.init(messageId: stored.messageId, readers: 2)])))
        }
    }

    /// Dave turns his read receipts to reciprocal through one node while his socket follows the group on
    /// another: that node reads his setting again when the bus tells it (not a minute later, at its recheck),
    /// and sends him no one's marks from then on.
    @Test(arguments: Bus.available)
    func aReadReceiptSettingChangedOnOneNodeHoldsOnTheOthers(bus: Bus) async throws {
        try await withCluster(nodes: 2, on: bus) { nodes, _ in
            let alice = try await nodes[1].socket("alice")
            alice.send(.subscribe(.init(conversation: Self.group, readState: true)))
            try await alice.next { if case .subscribed = $0 { true } else { false } }
            let dave = try await nodes[1].socket("dave")
            dave.send(.subscribe(.init(conversation: Self.group, readState: true)))
            try await dave.next { if case .subscribed = $0 { true } else { false } }
            let bob = try await nodes[1].socket("bob")
            #expect(try await nodes[0].request("PUT", "/v1/settings", as: "dave", json: #"{"readReceipts":"reciprocal"}"#) == 200)

            // Bob reads each new message; once a read of his reaches alice and not dave, dave's node applied it.
            let started = ContinuousClock.now
            var applied = false
            var index = 0
            while !applied, ContinuousClock.now - started < .seconds(20) {
                index += 1
                alice.send(.send(.init(conversation: Self.group, clientMessageId: "s\(index)", text: "\(index)")))
                let ack = try await alice.next { if case .ack = $0 { true } else { false } }
                guard case .ack(let stored) = ack else { return }
                bob.send(.read(.init(conversation: Self.group, messageId: stored.messageId)))
                try await alice.next {
                    if case .receipts(let receipts) = $0 { receipts.reads.contains { $0.messageId == stored.messageId } } else { false }
                }
                dave.send(.read(.init(conversation: Self.group, messageId: "999999")))  // its refusal follows all sent before
                _ = try await dave.error()
                applied = await !dave.received.contains { $0.contains(#""type":"receipts""#) && $0.contains(#""\#(stored.messageId)""#) }
            }
            #expect(applied, "dave still got bob's marks 20 s later (the minute's recheck is not what this waits for)")
        }
    }
}
