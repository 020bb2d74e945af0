import Testing
import TypewireCore

@testable import TypewireServer

@Suite("ReceiptBatcher: at most one receipts fan-out a second per conversation")
struct ReceiptBatcherTests {
    static func mark(_ user: String, _ id: String, at time: Int64) -> ReadMark { ReadMark(user: user, messageId: id, at: time) }

    @Test func theFirstReadGoesAtOnceAndTheNextWaitForTheIntervalTogether() {
        var batcher = ReceiptBatcher(interval: 1_000)
        #expect(batcher.add(Self.mark("alice", "1", at: 0), thread: nil, in: "c", now: 0) == .now)
        #expect(batcher.take(in: "c") == .init(frames: [.init(conversation: "c", reads: [Self.mark("alice", "1", at: 0)])], isLocal: true))
        #expect(batcher.add(Self.mark("bob", "1", at: 100), thread: nil, in: "c", now: 100) == .at(1_000))
        #expect(batcher.add(Self.mark("alice", "2", at: 200), thread: nil, in: "c", now: 200) == .scheduled)
        #expect(batcher.add(Self.mark("carol", "9", at: 300), thread: "1", in: "c", now: 300) == .scheduled)
        #expect(batcher.add(Self.mark("dave", "1", at: 300), thread: nil, in: "other", now: 300) == .now, "each conversation alone")
        #expect(batcher.wake("c", now: 999) == nil, "not yet")
        #expect(
            batcher.wake("c", now: 1_000)?.frames == [
                .init(conversation: "c", reads: [Self.mark("alice", "2", at: 200), Self.mark("bob", "1", at: 100)]),
                .init(conversation: "c", thread: "1", reads: [Self.mark("carol", "9", at: 300)]),
            ], "one frame per timeline, each member's latest mark")
        #expect(batcher.wake("c", now: 2_000) == nil, "nothing twice")
        #expect(batcher.add(Self.mark("bob", "2", at: 1_500), thread: nil, in: "c", now: 1_500) == .at(2_000), "a second after the last")
        #expect(batcher.add(Self.mark("bob", "3", at: 2_500), thread: nil, in: "d", now: 2_500) == .now)
    }

    @Test func countedReadersWaitAsMarksDoAndOnlyAReaderHereMakesABatchLocal() {
        var batcher = ReceiptBatcher(interval: 1_000)
        #expect(batcher.add(nil, thread: nil, in: "big", isLocal: false, now: 0) == .now)
        #expect(batcher.take(in: "big") == .init(frames: [.init(conversation: "big", reads: [])], isLocal: false), "another node's")
        #expect(batcher.add(nil, thread: nil, in: "big", isLocal: false, now: 10) == .at(1_000))
        #expect(batcher.add(nil, thread: "7", in: "big", isLocal: true, now: 20) == .scheduled)
        #expect(
            batcher.wake("big", now: 1_000)
                == .init(
                    frames: [.init(conversation: "big", reads: []), .init(conversation: "big", thread: "7", reads: [])], isLocal: true))
    }

    @Test func theTimesOfQuietConversationsAreDropped() {
        var batcher = ReceiptBatcher(interval: 1_000)
        for index in 0..<ReceiptBatcher.keptTimes {
            _ = batcher.add(Self.mark("alice", "1", at: 0), thread: nil, in: "c\(index)", now: 0)
            _ = batcher.take(in: "c\(index)")
        }
        #expect(batcher.timesKept == ReceiptBatcher.keptTimes)
        // Past the bound, a read a second later drops every stale time.
        #expect(batcher.add(Self.mark("alice", "1", at: 1_000), thread: nil, in: "new", now: 1_000) == .now)
        #expect(batcher.timesKept == 1)
    }
}
