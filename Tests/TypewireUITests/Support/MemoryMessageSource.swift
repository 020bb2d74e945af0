import Foundation
import NIOConcurrencyHelpers
import TypewireCore
import TypewireUI

/// An app's own message store in memory (what Firestore is on the Firebase path): every listener of a
/// conversation gets the messages there when it starts, then each one stored.
final class MemoryMessageSource: MessageSource {
    private struct State {
        var messages: [ChatMessage] = []
        var isOffline = false
        var listeners: [UUID: (conversation: String, continuation: AsyncStream<ChatMessage>.Continuation)] = [:]
    }

    private let state = NIOLockedValueBox(State())

    func messages(of conversationID: String) -> AsyncStream<ChatMessage> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChatMessage.self)
        let id = UUID()
        state.withLockedValue { state in
            for message in state.messages where message.conversation == conversationID { continuation.yield(message) }
            state.listeners[id] = (conversationID, continuation)
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLockedValue { _ = $0.listeners.removeValue(forKey: id) } }
        return stream
    }

    /// A send while the store is offline fails (an app's backend that cannot be reached).
    struct Offline: Error {}

    /// Whether sends fail.
    var isOffline: Bool {
        get { state.withLockedValue { $0.isOffline } }
        set { state.withLockedValue { $0.isOffline = newValue } }
    }

    /// Stores the message under its id; the same id again replaces it (a retry), as a document's id does.
    func send(_ message: OutgoingMessage) async throws {
        guard !isOffline else { throw Offline() }
        store(
            ChatMessage(
                conversation: message.conversation, id: message.id, sender: message.sender, senderName: nil, text: message.text,
                sentAt: now(), thread: message.thread))
    }

    /// Stores a message (as the app's backend would, e.g. a bot's finished reply) and hands it to the
    /// listeners; returns its id.
    @discardableResult
    func store(_ message: ChatMessage) -> String {
        let listeners = state.withLockedValue { state in
            if let index = state.messages.firstIndex(where: { $0.id == message.id }) {
                state.messages[index] = message
            } else {
                state.messages.append(message)
            }
            return state.listeners.values.filter { $0.conversation == message.conversation }.map(\.continuation)
        }
        for listener in listeners { listener.yield(message) }
        return message.id
    }

    /// The messages stored in a conversation.
    func stored(in conversationID: String) -> [ChatMessage] {
        state.withLockedValue { $0.messages.filter { $0.conversation == conversationID } }
    }

    /// How many listeners are open (a screen that went away ends its own).
    var listenerCount: Int { state.withLockedValue { $0.listeners.count } }

    func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000) }
}
