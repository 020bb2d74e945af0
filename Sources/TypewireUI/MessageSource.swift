import TypewireCore

/// The app's own store of a conversation's messages, for a Typewire server that keeps none (typing-only
/// mode: the Firebase path of docs/INTEGRATION.md). A ``ConversationModel`` given one shows the messages it
/// delivers and sends through it; typing, presence and bots' streamed replies still come from Typewire.
///
/// Implement it over the app's database (a Firestore snapshot listener, a REST endpoint). A bot's reply,
/// once the app's backend stores it, carries `clientMessageId` `stream-<messageId>`
/// (``ReplyID/clientMessageId(ofReply:)``, the id the bot streamed it under), so it takes the streamed
/// bubble's place instead of showing twice.
public protocol MessageSource: Sendable {
    /// The conversation's messages: those there now, oldest first, then each new or edited one as it
    /// comes. Ending the iteration (the screen went away) should end the listener.
    func messages(of conversationID: String) -> AsyncStream<ChatMessage>

    /// Stores a message of the user's in the conversation; returns its id once stored.
    func send(_ text: String, to conversationID: String) async throws -> String
}
