import Foundation
import Testing
import TypewireCore

@testable import TypewireServer

/// What a node puts on the NOTIFY channel and what it accepts from it.
@Suite("Cluster payloads: signed, and never over NOTIFY's limit")
struct ClusterPayloadTests {
    let payloads = ClusterPayload(secret: "a-cluster-secret-of-at-least-32-bytes!!")
    let presence = ClusterEnvelope(node: "node-a", event: .presence(user: "alice", online: true))

    func message(_ text: String) -> ChatMessage {
        ChatMessage(conversation: "group-six", id: "42", sender: "alice", senderName: "Alice", text: text, sentAt: 1, clientMessageId: "c1")
    }

    @Test func aSignedEventIsReadBack() throws {
        let decoded = try #require(payloads.decode(try payloads.encode(presence)))
        #expect(decoded.node == "node-a" && decoded.event == presence.event)
    }

    @Test func unsignedForgedAndAlteredEventsAreDropped() throws {
        let signed = try payloads.encode(presence)
        #expect(payloads.decode(#"node-b {"presence":{"user":"mallory","online":true}}"#) == nil, "the unsigned format")
        let otherKey = ClusterPayload(secret: "another-secret-another-secret-another!!")
        #expect(payloads.decode(try otherKey.encode(presence)) == nil, "signed with another key")
        #expect(payloads.decode(signed.replacingOccurrences(of: "alice", with: "mallo")) == nil, "the event changed")
        #expect(payloads.decode(signed.replacingOccurrences(of: "node-a", with: "node-b")) == nil, "the node changed")
        #expect(payloads.decode("") == nil && payloads.decode("node-a") == nil && payloads.decode("node-a !!! {}") == nil)
    }

    @Test func aMessageThatGrowsWhenEscapedGoesByReference() throws {
        // 4 000 bytes of text, over 8 000 once each quote and newline is escaped.
        let text = String(repeating: "\"\n", count: 2_000)
        let payload = try payloads.encode(ClusterEnvelope(node: "node-a", event: .message(message(text))))
        #expect(payload.utf8.count <= ClusterPayload.limit)
        #expect(payloads.decode(payload)?.event == .messageRef(conversation: "group-six", id: "42"))
        let short = try payloads.encode(ClusterEnvelope(node: "node-a", event: .message(message("Picnic at noon?"))))
        #expect(payloads.decode(short)?.event == .message(message("Picnic at noon?")), "a message that fits goes whole")
    }

    @Test func aStreamedPartTooLargeIsRefused() {
        let delta = ServerFrame.StreamDelta(
            conversation: "bot-clawd", messageId: "r1", user: "clawd", delta: String(repeating: "é", count: 5_000), final: false)
        #expect(throws: ClusterPayload.Refusal.self) { try payloads.encode(ClusterEnvelope(node: "node-a", event: .stream(delta))) }
    }
}
