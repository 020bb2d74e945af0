import Testing
import TypewireCore

@testable import TypewireServer

@Suite("HeldFrames: what a slow reader's socket holds back, a reply's parts merged")
struct HeldFramesTests {
    static func part(_ delta: String, seq: Int64, id: String = "r", final: Bool = false, end: ReplyEnd? = nil, text: String? = nil)
        -> OutboundFrame
    {
        OutboundFrame(
            part: .init(conversation: "c", messageId: id, user: "clawd", delta: delta, final: final, seq: seq, end: end, text: text))
    }

    static func parts(of held: inout HeldFrames) -> [ServerFrame.StreamDelta?] {
        held.take().map { $0.replyPart?.delta }
    }

    @Test func partsOfOneReplyMergeIntoOneFrameAndOtherFramesKeepTheirPlace() {
        var held = HeldFrames()
        let activity = OutboundFrame(text: #"{"type":"activity"}"#)
        for frame in [
            Self.part("Once", seq: 1), activity, Self.part(" upon", seq: 2), Self.part("A", seq: 1, id: "other"),
            Self.part(" a time", seq: 3),
        ] {
            let taken = held.hold(frame, within: .max)
            #expect(taken)
        }
        let frames = held.take()
        #expect(frames.count == 3, "three parts of one reply became one frame")
        #expect(frames[0].replyPart?.delta.delta == "Once upon a time" && frames[0].replyPart?.delta.seq == 3)
        #expect(frames[1].text == #"{"type":"activity"}"#)
        #expect(frames[2].replyPart?.delta.messageId == "other")
        #expect(frames[0].text.contains(#""delta":"Once upon a time""#), "the merged frame's bytes are the merged part")
        #expect(held.isEmpty && held.cost == 0)
    }

    @Test func theFinalPartMergesAndNothingMergesPastIt() {
        var held = HeldFrames()
        _ = held.hold(Self.part("Hel", seq: 1), within: .max)
        _ = held.hold(Self.part("lo", seq: 2, final: true, end: .cancelled), within: .max)
        _ = held.hold(Self.part(" late", seq: 3), within: .max)
        let parts = Self.parts(of: &held)
        #expect(parts.count == 2)
        #expect(parts[0]?.delta == "Hello" && parts[0]?.final == true && parts[0]?.end == .cancelled && parts[0]?.seq == 2)
        #expect(parts[1]?.delta == " late", "a part after the end is not moved before it")
    }

    @Test func aCatchUpReplacesTheWaitingPartsAndLaterPartsGrowItsText() {
        var held = HeldFrames()
        _ = held.hold(Self.part("One", seq: 1), within: .max)
        _ = held.hold(Self.part("", seq: 3, text: "One two three"), within: .max)
        _ = held.hold(Self.part(" four", seq: 4), within: .max)
        let parts = Self.parts(of: &held)
        #expect(parts.count == 1 && parts[0]?.text == "One two three four" && parts[0]?.seq == 4)
    }

    @Test func whatIsHeldStaysWithinItsRoom() {
        var held = HeldFrames()
        let first = Self.part("x", seq: 1)
        let tooSmall = held.hold(first, within: SentBytes.cost(of: first) - 1)
        #expect(!tooSmall && held.isEmpty)
        let fits = held.hold(first, within: SentBytes.cost(of: first))
        #expect(fits)
        let grows = held.hold(Self.part("y", seq: 2), within: held.cost)
        #expect(!grows, "a merge that grows past the room is refused")
        #expect(held.count == 1 && held.cost == SentBytes.cost(of: first))
    }
}
