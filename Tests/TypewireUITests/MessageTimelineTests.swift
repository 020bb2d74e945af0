import Testing
import TypewireCore
import TypewireUI

@Suite("MessageTimeline: the bubbles in the server's order")
struct MessageTimelineTests {
    private func message(_ id: String, at sentAt: Int64) -> ChatMessage {
        ChatMessage(conversation: "c", id: id, sender: "alice", senderName: "Alice", text: "text \(id)", sentAt: sentAt)
    }

    @Test func aCatchUpReplacesTheTextSoFarPartsAlreadyAppliedAreSkippedAndTheEndSaysHow() {
        var timeline = MessageTimeline()
        func part(_ delta: String, seq: Int64, final: Bool = false, end: ReplyEnd? = nil, text: String? = nil) -> ServerFrame.StreamDelta {
            .init(
                conversation: "c", messageId: "r", user: "clawd", delta: delta, final: final, seq: seq, end: end, asker: "alice", text: text
            )
        }
        timeline.stream(part("One", seq: 1), senderName: "Clawd", now: 1)
        // Offline for parts 2 and 3: the catch-up holds them; part 3 comes again (held while joining), part 4 is live.
        timeline.stream(part("", seq: 3, text: "One two three"), senderName: "Clawd", now: 2)
        timeline.stream(part(" three", seq: 3), senderName: "Clawd", now: 2)
        timeline.stream(part(" four", seq: 4), senderName: "Clawd", now: 3)
        #expect(timeline.items.map(\.text) == ["One two three four"], "no hole, no repeat")
        #expect(timeline.items.first?.replyID == "r" && timeline.items.first?.asker == "alice")
        timeline.stream(part("", seq: 5, final: true, end: .cancelled), senderName: "Clawd", now: 4)
        #expect(timeline.items.first?.replyEnd == .cancelled && timeline.items.first?.isStreaming == false)
        timeline.receive(
            ChatMessage(
                conversation: "c", id: "9", sender: "clawd", senderName: "Clawd", text: "One two three four", sentAt: 5,
                clientMessageId: "stream-r"))
        #expect(timeline.items.count == 1 && timeline.items.first?.replyEnd == .cancelled, "the stored reply keeps how it ended")
    }

    @Test func aHistoryThatArrivesAfterANewerLiveMessageGoesBeforeIt() {
        var timeline = MessageTimeline()
        timeline.receive(message("3", at: 300))  // live, before the screen's `subscribed`
        for old in [message("1", at: 100), message("2", at: 200), message("3", at: 300)] { timeline.receive(old) }
        #expect(timeline.items.map(\.messageID) == ["1", "2", "3"])
    }

    @Test func aPendingMessageStaysLastUntilItsCopyArrives() {
        var timeline = MessageTimeline()
        timeline.receive(message("1", at: 100))
        timeline.addPending(key: "pending-1", sender: "bob", senderName: "Bob", text: "mine", sentAt: 50)
        timeline.receive(message("2", at: 200))
        #expect(timeline.items.map(\.id) == ["message-1", "pending-1", "message-2"])
    }

    private func part(_ delta: String, final: Bool = false, of reply: String = "r1") -> ServerFrame.StreamDelta {
        ServerFrame.StreamDelta(conversation: "c", messageId: reply, user: "clawd", delta: delta, final: final)
    }

    private func storedReply(_ text: String, id: String = "9", of reply: String = "r1") -> ChatMessage {
        ChatMessage(
            conversation: "c", id: id, sender: "clawd", senderName: "Clawd", text: text, sentAt: 900,
            clientMessageId: ReplyID.clientMessageId(ofReply: reply))
    }

    @Test func anAcknowledgedMessageKeepsItsBubbleAndAFailedOneSaysSo() {
        var timeline = MessageTimeline()
        timeline.addPending(key: "pending-1", sender: "bob", senderName: "Bob", text: "first", sentAt: 50)
        timeline.addPending(key: "pending-2", sender: "bob", senderName: "Bob", text: "second", sentAt: 60)
        timeline.acknowledge(key: "pending-1", messageID: "7")
        timeline.fail(key: "pending-2")
        #expect(timeline.items.map(\.id) == ["pending-1", "pending-2"], "a bubble keeps its id for SwiftUI")
        #expect(timeline.items[0].messageID == "7" && !timeline.items[0].isPending && !timeline.items[0].isFailed)
        #expect(timeline.items[1].isFailed && !timeline.items[1].isPending && timeline.items[1].messageID == nil)
        timeline.acknowledge(key: "no-such-key", messageID: "8")
        #expect(timeline.items.count == 2)
    }

    @Test func onlyAFailedMessageIsRetriedAndItIsPendingAgainInItsPlace() {
        var timeline = MessageTimeline()
        timeline.addPending(key: "pending-1", sender: "bob", senderName: "Bob", text: "first", sentAt: 50)
        timeline.addPending(key: "pending-2", sender: "bob", senderName: "Bob", text: "second", sentAt: 60)
        timeline.fail(key: "pending-1")
        #expect(timeline.retry(key: "pending-2") == nil, "still pending: not sent twice")
        let retried = timeline.retry(key: "pending-1")
        #expect(retried?.text == "first" && retried?.isPending == true && retried?.isFailed == false)
        #expect(timeline.items.map(\.id) == ["pending-1", "pending-2"] && timeline.items[0].isPending && !timeline.items[0].isFailed)
        #expect(timeline.retry(key: "pending-1") == nil, "pending again: a second tap sends nothing")
    }

    @Test func aCopyThatArrivesBeforeItsAckLeavesOneBubble() {
        var timeline = MessageTimeline()
        timeline.addPending(key: "pending-1", sender: "alice", senderName: nil, text: "text 7", sentAt: 50)
        timeline.receive(message("7", at: 700))
        timeline.acknowledge(key: "pending-1", messageID: "7")
        #expect(timeline.items.map(\.messageID) == ["7"] && timeline.items.allSatisfy { !$0.isPending })
    }

    /// A message source's: the id is made before the write, and a listener hands on the local write at once.
    @Test func aPendingMessageWithItsIdTakesItsCopyAndStaysPendingUntilItsSendReturns() {
        var timeline = MessageTimeline()
        timeline.addPending(key: "pending-a", messageID: "a", sender: "alice", senderName: nil, text: "text a", sentAt: 50)
        timeline.receive(message("a", at: 60))  // the local write
        #expect(timeline.items.map(\.id) == ["pending-a"] && timeline.items[0].isPending, "one bubble, still on its way")
        timeline.receive(message("a", at: 70))  // the commit
        timeline.acknowledge(key: "pending-a")
        #expect(timeline.items.map(\.id) == ["pending-a"] && !timeline.items[0].isPending && timeline.items[0].messageID == "a")
    }

    @Test func aStoreThatMakesItsOwnIdsNamesThePendingMessageByClientMessageId() {
        var timeline = MessageTimeline()
        timeline.addPending(key: "pending-a", messageID: "a", sender: "alice", senderName: nil, text: "mine", sentAt: 50)
        timeline.receive(
            ChatMessage(conversation: "c", id: "row-41", sender: "alice", senderName: nil, text: "mine", sentAt: 60, clientMessageId: "a"))
        timeline.acknowledge(key: "pending-a")
        timeline.receive(ChatMessage(conversation: "c", id: "row-41", sender: "alice", senderName: nil, text: "mine, edited", sentAt: 60))
        #expect(timeline.items.map(\.messageID) == ["row-41"] && timeline.items[0].text == "mine, edited" && !timeline.items[0].isPending)
    }

    @Test func anEditReplacesTheTextInPlace() {
        var timeline = MessageTimeline()
        timeline.receive(message("1", at: 100))
        timeline.receive(message("2", at: 200))
        var edited = message("1", at: 100)
        edited.text = "edited"
        edited.editedAt = 500
        timeline.receive(edited)
        #expect(timeline.items.map(\.text) == ["edited", "text 2"] && timeline.items[0].editedAt == 500)
        timeline.receive(message("2", at: 200))  // sent again after a reconnect: nothing changes
        #expect(timeline.items.count == 2)
    }

    @Test func aStreamedReplyGrowsEndsAndIsReplacedByItsStoredCopy() {
        var timeline = MessageTimeline()
        timeline.stream(part("Typing "), senderName: "Clawd", now: 800)
        timeline.stream(part("indicators "), senderName: "Clawd", now: 810)
        #expect(timeline.items.map(\.text) == ["Typing indicators "] && timeline.items[0].isStreaming)
        timeline.stream(part("matter.", final: true), senderName: "Clawd", now: 820)
        #expect(!timeline.items[0].isStreaming && timeline.items[0].text == "Typing indicators matter.")
        timeline.receive(storedReply("Typing indicators matter."))
        #expect(timeline.items.count == 1 && timeline.items[0].messageID == "9")
    }

    @Test func aStoredReplyThatArrivesBeforeItsFinalPartIsNotShownTwice() {
        var timeline = MessageTimeline()
        timeline.stream(part("Typing "), senderName: "Clawd", now: 800)
        timeline.receive(storedReply("Typing indicators matter."))
        timeline.stream(part("indicators matter.", final: true), senderName: "Clawd", now: 820)
        #expect(timeline.items.map(\.text) == ["Typing indicators matter."] && !timeline.items[0].isStreaming)

        // On the Firebase path the app's store may deliver the reply before any part reached the screen.
        var early = MessageTimeline()
        early.receive(storedReply("Done.", id: "10", of: "r2"))
        early.stream(part("Done.", final: true, of: "r2"), senderName: "Clawd", now: 830)
        #expect(early.items.map(\.text) == ["Done."] && early.items[0].messageID == "10")
    }

    @Test func endingTheStreamsLeavesNoCursorBehind() {
        var timeline = MessageTimeline()
        timeline.stream(part("Half a"), senderName: "Clawd", now: 800)
        timeline.stream(part("Another", of: "r2"), senderName: "Clawd", now: 810)
        timeline.endStreams()
        #expect(timeline.items.allSatisfy { !$0.isStreaming } && timeline.items.map(\.text) == ["Half a", "Another"])
        timeline.stream(part(" late part", of: "r2"), senderName: "Clawd", now: 820)
        #expect(timeline.items[1].text == "Another", "a part after its reply was given up adds nothing")
    }
}
