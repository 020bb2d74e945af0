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
}
