import Testing
import TypewireCore
import TypewireUI

@Suite("MessageThread: the bubbles in the server's order")
struct MessageThreadTests {
    private func message(_ id: String, at sentAt: Int64) -> ChatMessage {
        ChatMessage(conversation: "c", id: id, sender: "alice", senderName: "Alice", text: "text \(id)", sentAt: sentAt)
    }

    @Test func aHistoryThatArrivesAfterANewerLiveMessageGoesBeforeIt() {
        var thread = MessageThread()
        thread.receive(message("3", at: 300))  // live, before the screen's `subscribed`
        for old in [message("1", at: 100), message("2", at: 200), message("3", at: 300)] { thread.receive(old) }
        #expect(thread.items.map(\.messageID) == ["1", "2", "3"])
    }

    @Test func aPendingMessageStaysLastUntilItsCopyArrives() {
        var thread = MessageThread()
        thread.receive(message("1", at: 100))
        thread.addPending(key: "pending-1", sender: "bob", senderName: "Bob", text: "mine", sentAt: 50)
        thread.receive(message("2", at: 200))
        #expect(thread.items.map(\.id) == ["message-1", "pending-1", "message-2"])
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
        var thread = MessageThread()
        thread.addPending(key: "pending-1", sender: "bob", senderName: "Bob", text: "first", sentAt: 50)
        thread.addPending(key: "pending-2", sender: "bob", senderName: "Bob", text: "second", sentAt: 60)
        thread.acknowledge(key: "pending-1", messageID: "7")
        thread.fail(key: "pending-2")
        #expect(thread.items.map(\.id) == ["pending-1", "pending-2"], "a bubble keeps its id for SwiftUI")
        #expect(thread.items[0].messageID == "7" && !thread.items[0].isPending && !thread.items[0].isFailed)
        #expect(thread.items[1].isFailed && !thread.items[1].isPending && thread.items[1].messageID == nil)
        thread.acknowledge(key: "no-such-key", messageID: "8")
        #expect(thread.items.count == 2)
    }

    @Test func onlyAFailedMessageIsRetriedAndItIsPendingAgainInItsPlace() {
        var thread = MessageThread()
        thread.addPending(key: "pending-1", sender: "bob", senderName: "Bob", text: "first", sentAt: 50)
        thread.addPending(key: "pending-2", sender: "bob", senderName: "Bob", text: "second", sentAt: 60)
        thread.fail(key: "pending-1")
        #expect(thread.retry(key: "pending-2") == nil, "still pending: not sent twice")
        let retried = thread.retry(key: "pending-1")
        #expect(retried?.text == "first" && retried?.isPending == true && retried?.isFailed == false)
        #expect(thread.items.map(\.id) == ["pending-1", "pending-2"] && thread.items[0].isPending && !thread.items[0].isFailed)
        #expect(thread.retry(key: "pending-1") == nil, "pending again: a second tap sends nothing")
    }

    @Test func aCopyThatArrivesBeforeItsAckLeavesOneBubble() {
        var thread = MessageThread()
        thread.addPending(key: "pending-1", sender: "alice", senderName: nil, text: "text 7", sentAt: 50)
        thread.receive(message("7", at: 700))
        thread.acknowledge(key: "pending-1", messageID: "7")
        #expect(thread.items.map(\.messageID) == ["7"] && thread.items.allSatisfy { !$0.isPending })
    }

    /// A message source's: the id is made before the write, and a listener hands on the local write at once.
    @Test func aPendingMessageWithItsIdTakesItsCopyAndStaysPendingUntilItsSendReturns() {
        var thread = MessageThread()
        thread.addPending(key: "pending-a", messageID: "a", sender: "alice", senderName: nil, text: "text a", sentAt: 50)
        thread.receive(message("a", at: 60))  // the local write
        #expect(thread.items.map(\.id) == ["pending-a"] && thread.items[0].isPending, "one bubble, still on its way")
        thread.receive(message("a", at: 70))  // the commit
        thread.acknowledge(key: "pending-a")
        #expect(thread.items.map(\.id) == ["pending-a"] && !thread.items[0].isPending && thread.items[0].messageID == "a")
    }

    @Test func aStoreThatMakesItsOwnIdsNamesThePendingMessageByClientMessageId() {
        var thread = MessageThread()
        thread.addPending(key: "pending-a", messageID: "a", sender: "alice", senderName: nil, text: "mine", sentAt: 50)
        thread.receive(
            ChatMessage(conversation: "c", id: "row-41", sender: "alice", senderName: nil, text: "mine", sentAt: 60, clientMessageId: "a"))
        thread.acknowledge(key: "pending-a")
        thread.receive(ChatMessage(conversation: "c", id: "row-41", sender: "alice", senderName: nil, text: "mine, edited", sentAt: 60))
        #expect(thread.items.map(\.messageID) == ["row-41"] && thread.items[0].text == "mine, edited" && !thread.items[0].isPending)
    }

    @Test func anEditReplacesTheTextInPlace() {
        var thread = MessageThread()
        thread.receive(message("1", at: 100))
        thread.receive(message("2", at: 200))
        var edited = message("1", at: 100)
        edited.text = "edited"
        edited.editedAt = 500
        thread.receive(edited)
        #expect(thread.items.map(\.text) == ["edited", "text 2"] && thread.items[0].editedAt == 500)
        thread.receive(message("2", at: 200))  // sent again after a reconnect: nothing changes
        #expect(thread.items.count == 2)
    }

    @Test func aStreamedReplyGrowsEndsAndIsReplacedByItsStoredCopy() {
        var thread = MessageThread()
        thread.stream(part("Typing "), senderName: "Clawd", now: 800)
        thread.stream(part("indicators "), senderName: "Clawd", now: 810)
        #expect(thread.items.map(\.text) == ["Typing indicators "] && thread.items[0].isStreaming)
        thread.stream(part("matter.", final: true), senderName: "Clawd", now: 820)
        #expect(!thread.items[0].isStreaming && thread.items[0].text == "Typing indicators matter.")
        thread.receive(storedReply("Typing indicators matter."))
        #expect(thread.items.count == 1 && thread.items[0].messageID == "9")
    }

    @Test func aStoredReplyThatArrivesBeforeItsFinalPartIsNotShownTwice() {
        var thread = MessageThread()
        thread.stream(part("Typing "), senderName: "Clawd", now: 800)
        thread.receive(storedReply("Typing indicators matter."))
        thread.stream(part("indicators matter.", final: true), senderName: "Clawd", now: 820)
        #expect(thread.items.map(\.text) == ["Typing indicators matter."] && !thread.items[0].isStreaming)

        // On the Firebase path the app's store may deliver the reply before any part reached the screen.
        var early = MessageThread()
        early.receive(storedReply("Done.", id: "10", of: "r2"))
        early.stream(part("Done.", final: true, of: "r2"), senderName: "Clawd", now: 830)
        #expect(early.items.map(\.text) == ["Done."] && early.items[0].messageID == "10")
    }

    @Test func endingTheStreamsLeavesNoCursorBehind() {
        var thread = MessageThread()
        thread.stream(part("Half a"), senderName: "Clawd", now: 800)
        thread.stream(part("Another", of: "r2"), senderName: "Clawd", now: 810)
        thread.endStreams()
        #expect(thread.items.allSatisfy { !$0.isStreaming } && thread.items.map(\.text) == ["Half a", "Another"])
        thread.stream(part(" late part", of: "r2"), senderName: "Clawd", now: 820)
        #expect(thread.items[1].text == "Another", "a part after its reply was given up adds nothing")
    }
}
