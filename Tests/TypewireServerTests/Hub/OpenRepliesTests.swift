import Testing
import TypewireCore

@testable import TypewireServer

@Suite("OpenReplies: the replies (turns) bots are streaming, and how each ends")
struct OpenRepliesTests {
    static func key(_ id: String, bot: String = "clawd") -> StreamKey {
        StreamKey(conversation: "c", messageId: id, bot: bot)
    }

    static func part(_ id: String, _ delta: String, final: Bool = false, end: ReplyEnd? = nil, asker: String? = nil) -> ClientFrame.Stream {
        ClientFrame.Stream(conversation: "c", messageId: id, delta: delta, isFinal: final, end: end, asker: asker)
    }

    @Test func numbersEachReplysPartsAndCountsEachBotsOpenReplies() {
        var replies = OpenReplies()
        #expect(
            replies.take(Self.part("1", "a"), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100)
                == .accepted(text: "a", seq: 1, isFirst: true, asker: nil, stoppedBy: nil))
        #expect(
            replies.take(Self.part("1", "b"), bot: "clawd", at: 5, maxOpen: 2, maxLength: 100)
                == .accepted(text: "ab", seq: 2, isFirst: false, asker: nil, stoppedBy: nil))
        _ = replies.take(Self.part("2", "x"), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100)
        _ = replies.take(Self.part("1", "y"), bot: "other", at: 0, maxOpen: 2, maxLength: 100)
        #expect(replies.count(of: "clawd") == 2)
        #expect(replies.take(Self.part("3", "z"), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100) == .tooManyOpen)
        #expect(
            replies.take(Self.part("1", "c", final: true), bot: "clawd", at: 6, maxOpen: 2, maxLength: 100)
                == .accepted(text: "abc", seq: 3, isFirst: false, asker: nil, stoppedBy: nil))
        #expect(replies.count(of: "clawd") == 1)
        #expect(replies.count(of: "other") == 1, "another bot's reply of the same id is its own")
    }

    @Test func aPartOfAnEndedReplyIsRefusedNotOpenedAgain() {
        var replies = OpenReplies()
        _ = replies.take(Self.part("1", "a", final: true), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100)
        #expect(replies.take(Self.part("1", "late"), bot: "clawd", at: 1, maxOpen: 2, maxLength: 100) == .ended(.finished))
        _ = replies.take(Self.part("2", "a"), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100)
        #expect(
            replies.take(Self.part("2", "aaaa"), bot: "clawd", at: 0, maxOpen: 2, maxLength: 3)
                == .tooLong(wasOpen: true, seq: 2, thread: nil))
        #expect(replies.take(Self.part("2", "b"), bot: "clawd", at: 1, maxOpen: 2, maxLength: 100) == .ended(.failed))
    }

    @Test func aSilentReplyEndsAtItsTimeoutAndNotBefore() {
        var replies = OpenReplies()
        _ = replies.take(Self.part("1", "a"), bot: "clawd", at: 1_000, maxOpen: 2, maxLength: 100)
        _ = replies.take(Self.part("1", "b"), bot: "clawd", at: 4_000, maxOpen: 2, maxLength: 100)
        // The timer armed at the first part wakes at 11 000: the last part moved the deadline to 14 000.
        #expect(replies.due(Self.key("1"), at: 11_000, timeout: 10_000, grace: 2_000) == .wait(until: 14_000))
        #expect(replies.due(Self.key("1"), at: 14_000, timeout: 10_000, grace: 2_000) == .end(.timedOut, by: nil, seq: 3, thread: nil))
        #expect(replies.due(Self.key("1"), at: 14_001, timeout: 10_000, grace: 2_000) == .gone, "ended once")
        #expect(replies.take(Self.part("1", "c"), bot: "clawd", at: 14_002, maxOpen: 2, maxLength: 100) == .ended(.timedOut))
    }

    @Test func onlyTheAskerStopsAReplyThatNamesOneAndTheServerEndsItAfterTheGrace() {
        var replies = OpenReplies()
        _ = replies.take(Self.part("1", "a", asker: "alice"), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100)
        #expect(replies.stop("1", in: "c", by: "bob", at: 100) == .notTheAsker("alice"))
        #expect(replies.stop("1", in: "c", by: "alice", at: 200) == .asked(bots: ["clawd"]))
        #expect(replies.stop("1", in: "c", by: "alice", at: 300) == .askedBefore, "the grace runs from the first stop")
        #expect(replies.due(Self.key("1"), at: 2_199, timeout: 10_000, grace: 2_000) == .wait(until: 2_200))
        #expect(replies.due(Self.key("1"), at: 2_200, timeout: 10_000, grace: 2_000) == .end(.cancelled, by: "alice", seq: 2, thread: nil))
        #expect(replies.stop("1", in: "c", by: "alice", at: 2_300) == .notUnderWay(ended: .cancelled))
        #expect(replies.stop("9", in: "c", by: "alice", at: 2_300) == .notUnderWay(ended: nil))
    }

    @Test func aBotThatHonoursTheStopEndsItAndTheFinalPartSaysWhoStoppedIt() {
        var replies = OpenReplies()
        _ = replies.take(Self.part("1", "a"), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100)
        #expect(replies.stop("1", in: "c", by: "bob", at: 10) == .asked(bots: ["clawd"]), "no asker: any member may stop it")
        #expect(
            replies.take(Self.part("1", "", final: true, end: .cancelled), bot: "clawd", at: 20, maxOpen: 2, maxLength: 100)
                == .accepted(text: "a", seq: 2, isFirst: false, asker: nil, stoppedBy: "bob"))
        #expect(replies.due(Self.key("1"), at: 5_000, timeout: 10_000, grace: 2_000) == .gone, "the grace's timer finds it ended")
    }

    @Test func rememberedEndsAreBoundedPerBot() {
        var replies = OpenReplies()
        for index in 0...OpenReplies.endedKept {
            _ = replies.take(Self.part("\(index)", "a", final: true), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100)
        }
        #expect(replies.end(of: Self.key("0")) == nil, "the oldest end is forgotten")
        #expect(replies.end(of: Self.key("1")) == .finished)
        #expect(replies.stop("0", in: "c", by: "alice", at: 0) == .notUnderWay(ended: nil))
    }

    @Test func forgettingOneBotsEndKeepsAnotherBotsEndOfTheSameID() {
        var replies = OpenReplies()
        _ = replies.take(Self.part("0", "a", final: true), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100)
        _ = replies.take(Self.part("0", "", final: true, end: .failed), bot: "helper", at: 0, maxOpen: 2, maxLength: 100)
        for index in 1...OpenReplies.endedKept {
            _ = replies.take(Self.part("\(index)", "a", final: true), bot: "clawd", at: 0, maxOpen: 2, maxLength: 100)
        }
        #expect(replies.end(of: Self.key("0")) == nil, "clawd's end of 0 is forgotten")
        #expect(replies.end(of: Self.key("0", bot: "helper")) == .failed)
        #expect(replies.stop("0", in: "c", by: "alice", at: 0) == .notUnderWay(ended: .failed), "helper's end of 0 is the last")
    }
}
