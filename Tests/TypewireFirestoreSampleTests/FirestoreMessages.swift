// docs/INTEGRATION.md's Firestore source, word for word from the next line on (a test holds them equal):
// there its first import is FirebaseFirestore, here the fake of the calls it makes (FakeFirestore.swift).
import Foundation
import TypewireCore
import TypewireUI

/// A conversation's messages in Firestore, at `conversations/{conversation}/messages/{message}`.
/// `nonisolated`: a new Xcode app target isolates its types to the main actor by default, and a
/// `MessageSource` is called from any task.
nonisolated struct FirestoreMessages: MessageSource {
    func messages(of conversationID: String) -> AsyncStream<ChatMessage> {
        AsyncStream { continuation in
            // A listener registration is not Sendable; it is only removed, once, when the screen's stream ends.
            nonisolated(unsafe) let listener = Self.messages(in: conversationID).order(by: "sentAt")
                .addSnapshotListener { snapshot, _ in
                    for change in snapshot?.documentChanges ?? [] where change.type != .removed {
                        // A local write comes at once with the device's estimate of the server's time, and
                        // again once committed: both under the id the model made, so one bubble.
                        let data = change.document.data(with: .estimate)
                        let sentAt = (data["sentAt"] as? Timestamp)?.dateValue() ?? Date()
                        continuation.yield(
                            ChatMessage(
                                conversation: conversationID, id: change.document.documentID,
                                sender: data["sender"] as? String ?? "", senderName: data["senderName"] as? String,
                                text: data["text"] as? String ?? "", sentAt: Int64(sentAt.timeIntervalSince1970 * 1_000),
                                // A bot's stored reply takes its streamed bubble's place (section 4).
                                clientMessageId: (data["replyId"] as? String).map(ReplyID.clientMessageId(ofReply:)),
                                thread: data["thread"] as? String))
                    }
                }
            continuation.onTermination = { _ in listener.remove() }
        }
    }

    func send(_ message: OutgoingMessage) async throws {
        var data: [String: Any] = ["sender": message.sender, "text": message.text, "sentAt": FieldValue.serverTimestamp()]
        if let thread = message.thread { data["thread"] = thread }
        // Under the model's id; returns once the server has it (offline, the bubble stays pending until then).
        try await Self.messages(in: message.conversation).document(message.id).setData(data)
    }

    private static func messages(in conversationID: String) -> CollectionReference {
        Firestore.firestore().collection("conversations/\(conversationID)/messages")
    }
}
