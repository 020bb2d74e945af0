import Foundation
import NIOCore
import Testing
import TypewireCore
import TypewireNATS

@testable import TypewireServer

/// What a node puts on the NATS bus: several events per sealed message, never over the server's payload limit.
@Suite("Cluster batches: several events per sealed NATS message")
struct ClusterBatchTests {
    static let secret = "a-cluster-secret-of-at-least-32-bytes!!"
    let sender = ClusterPayload(secret: secret, node: "node-a")
    let receiver = ClusterPayload(secret: secret, node: "node-b")
    let events: [ClusterEvent] = (1...50).map { .presence(user: "user-\($0)", online: $0.isMultiple(of: 2)) }
    let subject = ClusterSubjects.everyNode

    /// The node and events of an accepted payload, nil for any other.
    func heard(_ payload: ByteBuffer, on subject: String = ClusterSubjects.everyNode) -> (node: String, events: [ClusterEvent])? {
        guard case .accepted(let node, let events) = receiver.decodeBatch(payload, subject: subject) else { return nil }
        return (node, events)
    }

    @Test func eventsAreBatchedInOrderUnderTheLimitAndReadBack() throws {
        let (messages, tooLarge) = sender.encodeBatch(events, subject: subject, limit: 600)
        #expect(tooLarge == 0)
        #expect(messages.count > 1 && messages.count < events.count, "several events per message, several messages")
        #expect(messages.allSatisfy { $0.readableBytes <= 600 })
        var decoded: [ClusterEvent] = []
        for message in messages {
            let batch = try #require(heard(message))
            #expect(batch.node == "node-a")
            decoded += batch.events
        }
        #expect(decoded == events)
    }

    @Test func anEventLargerThanTheLimitAloneIsLeftOutAndCounted() {
        let long = ClusterEvent.presence(user: String(repeating: "x", count: 1_000), online: true)
        let (messages, tooLarge) = sender.encodeBatch([events[0], long, events[1]], subject: subject, limit: 600)
        #expect(tooLarge == 1)
        #expect(messages.compactMap { heard($0) }.flatMap(\.events) == [events[0], events[1]])
    }

    @Test func slicesAndEveryOtherEventReadBackWhole() throws {
        let message = ChatMessage(
            conversation: "c1", id: "7", sender: "alice", senderName: "Alice", text: "ünïcode \"quoted\"\n🙂", sentAt: 1,
            clientMessageId: "m")
        let slices: [ClusterEvent] = [
            .slice(conversation: "group-six", entries: [], serverTime: 1_795_000_000_000),
            .slice(
                conversation: "a.b c",
                entries: [
                    ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 1, expiresAt: 4_801),
                    ActivityEntry(user: "clawd", name: nil, activity: .toolUse("web_search"), since: -5, expiresAt: .max),
                    ActivityEntry(user: "bot", name: "Ünï 🙂", activity: .toolUse(nil), since: 0, expiresAt: 0),
                    ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 1, expiresAt: 4_801, thread: "7"),
                ]
                    + MemberActivity.Kind.allCases.map {
                        ActivityEntry(user: $0.rawValue, name: nil, activity: MemberActivity(kind: $0), since: 2, expiresAt: 3)
                    },
                serverTime: -1),
            .slice(conversation: "c2", entries: [], serverTime: 5, unlisted: UnlistedActivity(users: 90, until: 9_000)),
        ]
        let others: [ClusterEvent] = [
            .message(message), .messageRef(conversation: "c1", id: "7"), .membership(conversation: "c1", user: "bob", added: false),
            .presence(user: "carol", online: true), .resync, .sliceRequest(conversation: "c1"), .nodeDead(node: "n2"),
        ]
        let (messages, tooLarge) = sender.encodeBatch(slices + others, subject: subject, limit: 1_048_576)
        #expect(tooLarge == 0 && messages.count == 1)
        #expect(try #require(heard(messages[0])).events == slices + others)
    }

    @Test func aBodyThatDoesNotReadWholeIsRefused() throws {
        let slice = ClusterEvent.slice(
            conversation: "c1", entries: [ActivityEntry(user: "alice", name: "Alice", activity: .typing, since: 1, expiresAt: 2)],
            serverTime: 1)
        var body = ByteBuffer()
        body.writeInteger(ClusterBatchCodec.format)
        try ClusterBatchCodec.write(slice, into: &body, encoder: JSONEncoder())
        try ClusterBatchCodec.write(events[0], into: &body, encoder: JSONEncoder())
        #expect(try ClusterBatchCodec.read(body, decoder: JSONDecoder()) == [slice, events[0]])
        for cut in [body.readableBytes - 1, 30, 10, 2] {
            #expect(throws: (any Error).self) { try ClusterBatchCodec.read(body.getSlice(at: 0, length: cut)!, decoder: JSONDecoder()) }
        }
        var unknown = body
        unknown.setInteger(UInt8(9), at: 1)
        #expect(throws: (any Error).self) { try ClusterBatchCodec.read(unknown, decoder: JSONDecoder()) }
    }

    @Test func aBodyOfTheFormatBeforeThreadsReadsWithoutThem() throws {
        // Format 1, as a node of the version before threads writes a slice: no thread after each entry.
        var body = ByteBuffer()
        body.writeInteger(UInt8(1))
        body.writeInteger(UInt8(1))  // a slice
        for text in ["c1"] {
            body.writeInteger(UInt32(text.utf8.count))
            body.writeString(text)
        }
        body.writeInteger(Int64(5))  // serverTime
        body.writeInteger(UInt16(1))
        body.writeInteger(UInt32(5))
        body.writeString("alice")
        body.writeInteger(UInt8(0))  // no name
        body.writeInteger(UInt8(MemberActivity.Kind.allCases.firstIndex(of: .typing)!))
        body.writeInteger(UInt8(0))  // no detail
        body.writeInteger(Int64(1))
        body.writeInteger(Int64(2))
        let slice = ClusterEvent.slice(
            conversation: "c1", entries: [ActivityEntry(user: "alice", name: nil, activity: .typing, since: 1, expiresAt: 2)], serverTime: 5
        )
        #expect(try ClusterBatchCodec.read(body, decoder: JSONDecoder()) == [slice])
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
