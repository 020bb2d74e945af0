import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing
import TypewireCore

@testable import TypewireServer

/// What a node puts on the bus and what it accepts from it: sealed, bound to its subject, accepted once and
/// only while fresh, and never over NOTIFY's limit.
@Suite("Cluster payloads: sealed, fresh, accepted once")
struct ClusterPayloadTests {
    static let secret = "a-cluster-secret-of-at-least-32-bytes!!"
    static let channel = PostgresClusterBus.channel
    let clock = NIOLockedValueBox<Int64>(1_795_000_000_000)
    let sender: ClusterPayload
    let receiver: ClusterPayload
    let presence = ClusterEvent.presence(user: "alice", online: true)

    init() {
        let clock = clock
        sender = ClusterPayload(secret: Self.secret, node: "node-a", now: { clock.withLockedValue { $0 } })
        receiver = ClusterPayload(secret: Self.secret, node: "node-b", now: { clock.withLockedValue { $0 } })
    }

    func message(_ text: String) -> ChatMessage {
        ChatMessage(conversation: "group-six", id: "42", sender: "alice", senderName: "Alice", text: text, sentAt: 1, clientMessageId: "c1")
    }

    /// The events of an accepted notification, nil for any other.
    func heard(_ payload: String, on subject: String = channel) -> [ClusterEvent]? {
        guard case .accepted(let node, let events) = receiver.decode(payload, subject: subject), node == "node-a" else { return nil }
        return events
    }

    func isReplayed(_ opened: ClusterPayload.Opened) -> Bool {
        if case .replayed = opened { true } else { false }
    }

    @Test func aSealedEventIsReadBackOnceAndItsTextIsNotInThePayload() throws {
        let payload = try sender.encode(.message(message("Picnic at noon?")), subject: Self.channel)
        #expect(!payload.contains("Picnic") && !payload.contains("alice") && !payload.contains("group-six"), "sealed: \(payload)")
        #expect(heard(payload) == [.message(message("Picnic at noon?"))])
        #expect(isReplayed(receiver.decode(payload, subject: Self.channel)), "the same payload again is a replay")
    }

    @Test func payloadsReplayedLaterOrFromAnotherClockAreRefused() throws {
        let old = try sender.encode(presence, subject: Self.channel)
        let next = try sender.encode(.presence(user: "alice", online: false), subject: Self.channel)
        #expect(heard(next) != nil)
        #expect(heard(old) != nil, "a little out of order, once")
        clock.withLockedValue { $0 += 31_000 }
        let late = try sender.encode(presence, subject: Self.channel)
        clock.withLockedValue { $0 += 31_000 }
        #expect(isReplayed(receiver.decode(late, subject: Self.channel)), "sealed 31 s ago")
        // A node whose clock is 31 s ahead of this one's.
        let aheadClock = clock.withLockedValue { $0 } + 31_000
        let ahead = ClusterPayload(secret: Self.secret, node: "node-c", now: { aheadClock })
        #expect(isReplayed(receiver.decode(try ahead.encode(presence, subject: Self.channel), subject: Self.channel)))
    }

    @Test func forgedAlteredAndMovedPayloadsAreRefused() throws {
        let sealed = try sender.encode(presence, subject: Self.channel)
        let otherKey = ClusterPayload(secret: "another-secret-another-secret-another!!", node: "node-a")
        #expect(heard(try otherKey.encode(presence, subject: Self.channel)) == nil, "sealed with another key")
        #expect(heard(sealed.replacingOccurrences(of: "node-a ", with: "node-z ")) == nil, "the node changed")
        #expect(heard(sealed, on: "another_channel") == nil, "heard on another subject")
        let bytes = Array(Data(base64Encoded: String(sealed.dropFirst("node-a ".count)))!)
        for index in [0, 1, 9, 17, bytes.count / 2, bytes.count - 1] {
            var altered = bytes
            altered[index] ^= 0x01
            #expect(heard("node-a " + Data(altered).base64EncodedString()) == nil, "byte \(index) changed")
        }
        for garbage in ["", "node-a", "node-a !!!", #"node-a {"presence":{"user":"mallory","online":true}}"#, "node-a AAAA"] {
            #expect(heard(garbage) == nil, "\(garbage)")
        }
    }

    @Test func aBatchMovedToAnotherSubjectOrReplayedIsRefused() throws {
        let group = ClusterSubjects.conversation("group-six")
        let batch = try #require(sender.encodeBatch([presence], subject: group, limit: 10_000).payloads.first)
        guard case .refused = receiver.decodeBatch(batch, subject: ClusterSubjects.conversation("other")) else {
            Issue.record("a batch republished on another conversation's subject was accepted")
            return
        }
        guard case .accepted(_, let events) = receiver.decodeBatch(batch, subject: group) else {
            Issue.record("the batch on its own subject was refused")
            return
        }
        #expect(events == [presence])
        #expect(isReplayed(receiver.decodeBatch(batch, subject: group)))
    }

    @Test func aMessageTooLargeForNotifyGoesByReference() throws {
        // 6 000 bytes of text: over the limit once sealed and in base64.
        let payload = try sender.encode(.message(message(String(repeating: "é", count: 3_000))), subject: Self.channel)
        #expect(payload.utf8.count <= ClusterPayload.limit)
        #expect(heard(payload) == [.messageRef(conversation: "group-six", id: "42")])
        let short = try sender.encode(.message(message("Picnic at noon?")), subject: Self.channel)
        #expect(heard(short) == [.message(message("Picnic at noon?"))], "a message that fits goes whole")
    }

    @Test func aStreamedPartTooLargeIsRefused() {
        let delta = ServerFrame.StreamDelta(
            conversation: "bot-clawd", messageId: "r1", user: "clawd", delta: String(repeating: "é", count: 5_000), final: false)
        #expect(throws: ClusterPayload.Refusal.self) { try sender.encode(.stream(delta), subject: Self.channel) }
    }
}

@Suite("ClusterReplayWindow: each counter once, only while fresh")
struct ClusterReplayWindowTests {
    @Test func eachCounterIsAcceptedOnceInAnyOrderWithinTheWidth() {
        var window = ClusterReplayWindow(window: 30_000)
        #expect(window.admit(node: "a", counter: 5, sentAt: 0, now: 0) == .accepted)
        #expect(window.admit(node: "a", counter: 5, sentAt: 0, now: 0) == .replayed)
        #expect(window.admit(node: "a", counter: 3, sentAt: 0, now: 0) == .accepted, "late, once")
        #expect(window.admit(node: "a", counter: 3, sentAt: 0, now: 0) == .replayed)
        #expect(window.admit(node: "b", counter: 3, sentAt: 0, now: 0) == .accepted, "another node's counters are its own")
        #expect(window.admit(node: "a", counter: 5 + 1_000, sentAt: 0, now: 0) == .accepted)
        #expect(window.admit(node: "a", counter: 4, sentAt: 0, now: 0) == .accepted, "1 001 behind: still inside")
        #expect(window.admit(node: "a", counter: 5, sentAt: 0, now: 0) == .replayed, "remembered across the words' shift")
        #expect(window.admit(node: "a", counter: 2_005, sentAt: 0, now: 0) == .accepted)
        let width = UInt64(ClusterReplayWindow.width)
        #expect(window.admit(node: "a", counter: 2_005 - (width - 1), sentAt: 0, now: 0) == .accepted, "the oldest still told apart")
        #expect(window.admit(node: "a", counter: 2_005 - width, sentAt: 0, now: 0) == .replayed, "too far behind")
        #expect(window.admit(node: "a", counter: 100_000, sentAt: 0, now: 0) == .accepted, "a jump past the width")
        #expect(window.admit(node: "a", counter: 100_000 - 1, sentAt: 0, now: 0) == .accepted)
        #expect(window.admit(node: "a", counter: 2_005, sentAt: 0, now: 0) == .replayed)
    }

    @Test func everyCounterOfAShuffledRunIsAcceptedOnceAndOnlyOnce() {
        var window = ClusterReplayWindow(window: 30_000)
        var generator = SystemRandomNumberGenerator()
        // Counters 1…5 000 delivered in blocks of 64, each block shuffled: out of order, but never by a whole width.
        let counters: [UInt64] = stride(from: 1, through: 5_000, by: 64).flatMap { (start: Int) -> [UInt64] in
            Array(UInt64(start)...UInt64(min(start + 63, 5_000))).shuffled(using: &generator)
        }
        #expect(counters.allSatisfy { window.admit(node: "a", counter: $0, sentAt: 0, now: 0) == .accepted })
        #expect(counters.suffix(500).allSatisfy { window.admit(node: "a", counter: $0, sentAt: 0, now: 0) == .replayed })
    }

    @Test func aPayloadOutsideTheTimeWindowIsStaleAndExtremeTimesDoNotTrap() {
        var window = ClusterReplayWindow(window: 30_000)
        #expect(window.admit(node: "a", counter: 1, sentAt: 100_000, now: 130_000) == .accepted)
        #expect(window.admit(node: "a", counter: 2, sentAt: 100_000, now: 130_001) == .stale)
        #expect(window.admit(node: "a", counter: 3, sentAt: 160_002, now: 130_001) == .stale, "from a clock ahead")
        for sentAt in [Int64.min, .max, .min + 1] {
            #expect(window.admit(node: "a", counter: 4, sentAt: sentAt, now: 130_001) == .stale)
            #expect(window.admit(node: "a", counter: 4, sentAt: sentAt, now: sentAt == .max ? .min : .max) == .stale)
        }
    }

    @Test func nodesNotHeardFromForTwoWindowsAreForgotten() {
        var window = ClusterReplayWindow(window: 30_000)
        for node in ["a", "b", "c"] { _ = window.admit(node: node, counter: 1, sentAt: 0, now: 0) }
        _ = window.admit(node: "a", counter: 2, sentAt: 40_000, now: 40_000)
        _ = window.admit(node: "a", counter: 3, sentAt: 71_000, now: 71_000)
        #expect(window.senderCount == 1)
    }
}
