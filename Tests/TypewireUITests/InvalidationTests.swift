import Foundation
import Observation
import Testing
import TypewireClient
import TypewireCore
import TypewireTesting
import TypewireUI

/// What a change of who types makes SwiftUI read again: ``ConversationView`` shows the message list, each
/// message's "people are replying" label and the indicator row as views of their own, each reading its own
/// slice of the model. Counted here with Observation, as SwiftUI tracks a body.
@Suite("What a typing change invalidates", .timeLimit(.minutes(1)))
@MainActor
struct InvalidationTests {
    @Test func someoneTypingRedrawsTheIndicatorNotTheMessagesNorTheirReplyingLabels() async throws {
        // A ttl and an idle timeout of a minute: what clears typing is the stop a test claims, never expiry or idling.
        try await TestServer.run(configure: {
            $0.typing.activityTTL = .seconds(60)
            $0.typing.idleTimeout = .seconds(60)
        }) { server in
            let group = try await server.makeGroup(title: "Lunch", members: ["bob"])
            try await withConnectedClients(["alice", "bob"], of: server) { clients in
                let alice = ConversationModel(client: clients[0], conversationID: group)
                let bob = ConversationModel(client: clients[1], conversationID: group)
                await alice.appear()
                await bob.appear()
                try await eventually { bob.onlineMembers.contains("alice") }
                alice.draft = "Lunch?"
                await alice.send()
                let parent = try #require(alice.messages.last?.messageID)
                try await eventually { bob.messages.map(\.text) == ["Lunch?"] }

                // What each of Bob's views reads in its body.
                let list = Invalidations { for item in bob.messages { _ = (item, bob.canStop(item)) } }
                let replyingLabel = Invalidations {
                    _ = (bob.replyingText(for: parent), bob.accessibilityReplyingText(for: parent))
                }
                let indicator = Invalidations { _ = (bob.indicatorText, bob.indicatorAccessibilityText) }

                for round in 1...3 {
                    alice.draft = "Sushi \(round)"
                    try await eventually { bob.typingText == "Alice is typing…" }
                    try await eventually { indicator.count >= 2 * round - 1 }
                    alice.draft = ""
                    try await eventually { bob.typingText == nil }
                    try await eventually { indicator.count >= 2 * round }
                }
                #expect(list.count == 0, "the message list is not read again when someone types")
                #expect(replyingLabel.count == 0, "nor is a message's replying label when no one writes in its thread")

                let aliceThread = ConversationModel(client: clients[0], conversationID: group, parentMessageID: parent)
                await aliceThread.appear()
                aliceThread.draft = "Sus"
                try await eventually { bob.replyingText(for: parent) == "1 person is replying…" }
                try await eventually { replyingLabel.count >= 1 }
                #expect(list.count == 0, "typing in a thread changes the parent's label only")

                alice.draft = "Or pizza?"
                await alice.send()
                try await eventually { bob.messages.count == 2 }
                try await eventually { list.count >= 1 }

                await aliceThread.disappear()
                await alice.disappear()
                await bob.disappear()
            }
        }
    }
}

/// How many times what `read` reads changed: tracked again after each change, as SwiftUI tracks a body
/// again after it evaluates it.
@MainActor
private final class Invalidations {
    private(set) var count = 0
    private let read: @MainActor () -> Void

    init(_ read: @escaping @MainActor () -> Void) {
        self.read = read
        track()
    }

    private func track() {
        withObservationTracking {
            read()
        } onChange: { [weak self] in
            Task { @MainActor in
                guard let self else { return }
                self.count += 1
                self.track()
            }
        }
    }
}
