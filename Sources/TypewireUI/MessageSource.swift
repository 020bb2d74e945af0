import Foundation
import TypewireCore

/// The app's own store of a conversation's messages, for a Typewire server that keeps none (typing-only
/// mode: the Firebase path of docs/INTEGRATION.md). A ``ConversationModel`` given one shows the messages it
/// delivers and sends through it; typing, presence and bots' streamed replies still come from Typewire.
///
/// Implement it over the app's database (a Firestore snapshot listener, a REST endpoint). A bot's reply,
/// once the app's backend stores it, carries `clientMessageId` `stream-<messageId>`
/// (``ReplyID/clientMessageId(ofReply:)``, the id the bot streamed it under), so it takes the streamed
/// bubble's place instead of showing twice.
///
/// For threads, a message carries its parent's id in `thread`; a thread's model shows those of its thread
/// from ``messages(of:)`` and sends through ``send(_:to:thread:)``.
public protocol MessageSource: Sendable {
    /// The conversation's messages (replies in threads among them, or not): those there now, oldest first,
    /// then each new or edited one as it comes. Ending the iteration (the screen went away) should end the
    /// listener.
    func messages(of conversationID: String) -> AsyncStream<ChatMessage>

    /// Stores a message of the user's in the conversation; returns its id once stored.
    func send(_ text: String, to conversationID: String) async throws -> String

    /// Stores a message of the user's in the conversation, as a reply in `thread` (the parent message's id)
    /// if given; returns its id once stored. The default sends to the main timeline, and refuses a reply
    /// with ``MessageSourceError/threadsNotSupported``: implement it to store replies.
    func send(_ text: String, to conversationID: String, thread: String?) async throws -> String
}

extension MessageSource {
    public func send(_ text: String, to conversationID: String, thread: String?) async throws -> String {
        guard thread == nil else { throw MessageSourceError.threadsNotSupported }
        return try await send(text, to: conversationID)
    }
}

/// Why a ``MessageSource`` refused a message.
public enum MessageSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source stores no replies in threads: it does not implement ``MessageSource/send(_:to:thread:)``.
    case threadsNotSupported

    public var description: String {
        switch self {
        case .threadsNotSupported:
            "This message source stores no replies in threads: implement MessageSource.send(_:to:thread:) to store them."
        }
    }
}

extension MessageSourceError: LocalizedError {
    /// What `localizedDescription` shows: ``description``.
    public var errorDescription: String? { description }
}
