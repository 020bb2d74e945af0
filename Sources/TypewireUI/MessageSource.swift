import Foundation
import TypewireCore

/// The app's own store of a conversation's messages, for a Typewire server that keeps none (typing-only
/// mode: the Firebase path of docs/INTEGRATION.md). A ``ConversationModel`` given one shows the messages it
/// delivers and sends through it; typing, presence and bots' streamed replies still come from Typewire.
///
/// Implement it over the app's database (a Firestore snapshot listener, a REST endpoint). A message the
/// user sends has its id before it is stored (``OutgoingMessage/id``): store it under that id (a Firestore
/// document's id), or deliver it back with that id as its `clientMessageId`, and the pending bubble and the
/// stored copy are one bubble, whichever comes first (a listener hands on a local write at once, long
/// before the server commits it). A bot's reply, once the app's backend stores it, carries
/// `clientMessageId` `stream-<messageId>` (``/TypewireCore/ReplyID/clientMessageId(ofReply:)``, the id the bot streamed it
/// under), so it takes the streamed bubble's place instead of showing twice.
///
/// For threads, a message carries its parent's id in `thread`; a thread's model shows those of its thread
/// from ``messages(of:)`` and sends replies with ``OutgoingMessage/thread`` set. A store without threads
/// throws ``MessageSourceError/threadsNotSupported`` for them.
public protocol MessageSource: Sendable {
    /// The conversation's messages (replies in threads among them, or not): those there now, oldest first,
    /// then each new or edited one as it comes. Ending the iteration (the screen went away) should end the
    /// listener.
    func messages(of conversationID: String) -> AsyncStream<ChatMessage>

    /// Stores a message of the user's under ``OutgoingMessage/id``; returns once the store has it (with
    /// Firestore, once the server committed it: offline, the bubble stays pending until then). Storing the
    /// same id again (a retry) must not make a second message.
    func send(_ message: OutgoingMessage) async throws
}

/// A message of the user's on its way to the app's store (``MessageSource/send(_:)``).
public struct OutgoingMessage: Hashable, Sendable {
    /// The id it is to be stored under, made on the device before anything is written (a lowercase UUID).
    public var id: String
    /// The conversation.
    public var conversation: String
    /// The user who wrote it (the id the Typewire token names; empty until the first `welcome` said it).
    public var sender: String
    /// The text.
    public var text: String
    /// The parent message's id for a reply in a thread; nil in the conversation's main timeline.
    public var thread: String?

    /// Creates a message (the model makes them; for tests and previews).
    public init(id: String, conversation: String, sender: String, text: String, thread: String? = nil) {
        self.id = id
        self.conversation = conversation
        self.sender = sender
        self.text = text
        self.thread = thread
    }
}

/// Why a ``MessageSource`` refused a message.
public enum MessageSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source stores no replies in threads (``OutgoingMessage/thread`` was set).
    case threadsNotSupported

    public var description: String {
        switch self {
        case .threadsNotSupported:
            "This message source stores no replies in threads: store OutgoingMessage.thread in MessageSource.send(_:) to keep them."
        }
    }
}

extension MessageSourceError: LocalizedError {
    /// What `localizedDescription` shows: ``description``.
    public var errorDescription: String? { description }
}
