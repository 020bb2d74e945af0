import Foundation
import NIOCore
import Testing
import TypewireCore
import TypewireNATS

@testable import TypewireServer

/// What a node puts on the NATS bus: several events per signed message, never over the server's payload limit.
@Suite("Cluster batches: several events per signed NATS message")
struct ClusterBatchTests {
    let payloads = ClusterPayload(secret: "a-cluster-secret-of-at-least-32-bytes!!")
    let events: [ClusterEvent] = (1...50).map { .presence(user: "user-\($0)", online: $0.isMultiple(of: 2)) }

    @Test func eventsAreBatchedInOrderUnderTheLimitAndReadBack() throws {
        let (messages, tooLarge) = payloads.encodeBatch(events, from: "node-a", limit: 600)
        #expect(tooLarge == 0)
        #expect(messages.count > 1 && messages.count < events.count, "several events per message, several messages")
        #expect(messages.allSatisfy { $0.readableBytes <= 600 })
        var decoded: [ClusterEvent] = []
        for message in messages {
            let batch = try #require(payloads.decodeBatch(message))
            #expect(batch.node == "node-a")
            decoded += batch.events
        }
        #expect(decoded == events)
    }

    @Test func anEventLargerThanTheLimitAloneIsLeftOutAndCounted() {
        let long = ClusterEvent.presence(user: String(repeating: "x", count: 1_000), online: true)
        let (messages, tooLarge) = payloads.encodeBatch([events[0], long, events[1]], from: "node-a", limit: 600)
        #expect(tooLarge == 1)
        #expect(messages.compactMap { payloads.decodeBatch($0) }.flatMap(\.events) == [events[0], events[1]])
    }

    @Test func forgedAndAlteredBatchesAreRefused() throws {
        let message = try #require(payloads.encodeBatch([events[0]], from: "node-a", limit: 10_000).payloads.first)
        let text = String(buffer: message)
        let otherKey = ClusterPayload(secret: "another-secret-another-secret-another!!")
        #expect(payloads.decodeBatch(try #require(otherKey.encodeBatch([events[0]], from: "node-a", limit: 10_000).payloads.first)) == nil)
        #expect(payloads.decodeBatch(ByteBuffer(string: text.replacingOccurrences(of: "user-1", with: "user-9"))) == nil)
        #expect(payloads.decodeBatch(ByteBuffer(string: text.replacingOccurrences(of: "node-a", with: "node-b"))) == nil)
        for garbage in ["", "node-a", "node-a !!! []", #"node-a x [{"resync":{}}]"#] {
            #expect(payloads.decodeBatch(ByteBuffer(string: garbage)) == nil, "\(garbage)")
        }
    }
}

@Suite("Cluster subjects: one per conversation, valid for NATS, never shared")
struct ClusterSubjectsTests {
    @Test(arguments: ["group-six", "a.b", "a b", "*", ">", "~7E", "~", "Ünïcode 🙂", "x\ty", String(repeating: "é", count: 128)])
    func everyIdMakesOneValidToken(id: String) {
        let subject = ClusterSubjects.conversation(id)
        #expect(NATSSubject.isValid(subject), "\(subject)")
        #expect(subject.hasPrefix(ClusterSubjects.conversationPrefix))
        #expect(!subject.dropFirst(ClusterSubjects.conversationPrefix.count).contains { ".*> \t".contains($0) }, "one token, no wildcard")
    }

    @Test func idsThatDifferMakeSubjectsThatDiffer() {
        let ids = ["~", "~7E", "a.b", "a~2Eb", "a_b", "A_B", "a-b", "a b", "a~20b"]
        #expect(Set(ids.map(ClusterSubjects.conversation)).count == ids.count)
        #expect(ClusterSubjects.conversation("group-six") == "typewire.c.group-six")
    }

    @Test func eventsOfAConversationTravelOnItsSubjectAndTheRestOnTheSubjectOfEveryNode() {
        let message = ChatMessage(conversation: "c1", id: "1", sender: "a", senderName: nil, text: "hi", sentAt: 1, clientMessageId: nil)
        #expect(ClusterSubjects.subject(of: .message(message)) == "typewire.c.c1")
        #expect(ClusterSubjects.subject(of: .slice(conversation: "c1", entries: [], serverTime: 0)) == "typewire.c.c1")
        #expect(ClusterSubjects.subject(of: .sliceRequest(conversation: "c1")) == "typewire.c.c1")
        for event: ClusterEvent in [
            .presence(user: "a", online: true), .membership(conversation: "c1", user: "a", added: true), .resync, .nodeStopping,
            .block(blocker: "a", user: "b", blocked: true),
        ] {
            #expect(ClusterSubjects.subject(of: event) == ClusterSubjects.everyNode, "\(event)")
        }
    }
}
