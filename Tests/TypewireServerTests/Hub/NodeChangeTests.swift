import Testing
import TypewireCore

@testable import TypewireServer

/// Each change a node makes, told once: what the other nodes are sent and what the app's backend is.
@Suite("NodeChange: one change, its cluster events and its webhook")
struct NodeChangeTests {
    @Test func aConnectionIsPresenceForTheNodesWhenShownAndForTheBackendAlways() {
        #expect(NodeChange.connection(user: "a", online: true, shown: true).clusterEvents == [.presence(user: "a", online: true)])
        #expect(NodeChange.connection(user: "a", online: true, shown: false).clusterEvents == [], "one who shares with nobody")
        #expect(NodeChange.connection(user: "a", online: true, shown: false).webhookPayload == .presenceChanged(user: "a", online: true))
        #expect(NodeChange.connection(user: "a", online: false, shown: true).webhookPayload == .presenceChanged(user: "a", online: false))
    }

    @Test func presenceShownAfterASharingChangeTellsTheNodesAndNotTheBackend() {
        let change = NodeChange.presenceShown(user: "a", online: false)
        #expect(change.clusterEvents == [.presence(user: "a", online: false)] && change.webhookPayload == nil)
    }

    @Test func membersAreOneEventPerMemberForTheNodesAndOneForTheBackend() {
        let change = NodeChange.members(conversation: "c", joined: ["a", "b"], left: ["d"])
        #expect(
            change.clusterEvents == [
                .membership(conversation: "c", user: "a", added: true), .membership(conversation: "c", user: "b", added: true),
                .membership(conversation: "c", user: "d", added: false),
            ])
        #expect(change.webhookPayload == .membersChanged(conversation: "c", added: ["a", "b"], removed: ["d"], deleted: false))
        let created = NodeChange.members(conversation: "c", joined: ["a"], left: [], created: true)
        #expect(created.clusterEvents == [], "nobody follows a new conversation")
        #expect(created.webhookPayload == .membersChanged(conversation: "c", added: ["a"], removed: [], deleted: false))
        let deleted = NodeChange.members(conversation: "c", joined: [], left: ["a"], deleted: true)
        #expect(deleted.webhookPayload == .membersChanged(conversation: "c", added: [], removed: ["a"], deleted: true))
        #expect(NodeChange.members(conversation: "c", joined: [], left: []).webhookPayload == nil, "no change, no event")
    }

    @Test func settingsAndBlocksAreForTheNodesOnly() {
        let changes: [(NodeChange, ClusterEvent)] = [
            (.typingSharing(user: "a", shares: false), .sharing(user: "a", shares: false)),
            (.presenceSharing(user: "a", shares: true), .presenceSharing(user: "a", shares: true)),
            (.readReceipts(user: "a"), .readReceipts(user: "a")),
            (.block(blocker: "a", user: "b", blocked: true), .block(blocker: "a", user: "b", blocked: true)),
        ]
        for (change, event) in changes {
            #expect(change.clusterEvents == [event] && change.webhookPayload == nil, "\(change)")
        }
    }
}
