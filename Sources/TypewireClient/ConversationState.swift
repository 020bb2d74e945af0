import TypewireCore

/// What the client keeps for one open conversation.
struct ConversationState {
    var typing: AsyncStream<TypingState>.Continuation
    var messages: AsyncStream<ChatMessage>.Continuation
    var presence: AsyncStream<ServerFrame.Presence>.Continuation
    var replies: AsyncStream<ServerFrame.StreamDelta>.Continuation
    /// The ordered lane of the handle and its composers (``ConversationStep``).
    var lane: AsyncStream<ConversationStep>.Continuation
    /// Tells this opening of the conversation from a later one under the same id.
    let opening: Int
    var roster: TypingRoster<ContinuousClock.Instant>?
    var lastPublished: TypingState = .idle
    var expiryTimer: Task<Void, Never>?
    /// The ids of the messages delivered lately (a resync repeats only the latest ones).
    var delivered = RecentIDs(capacity: 1_000)
    var isSubscribed = false
    /// The composers typing here; each is told when the connection comes and goes, and ended with the
    /// conversation.
    var composers: [ObjectIdentifier: Composer] = [:]

    init(
        typing: AsyncStream<TypingState>.Continuation, messages: AsyncStream<ChatMessage>.Continuation,
        presence: AsyncStream<ServerFrame.Presence>.Continuation, replies: AsyncStream<ServerFrame.StreamDelta>.Continuation,
        lane: AsyncStream<ConversationStep>.Continuation, opening: Int
    ) {
        self.typing = typing
        self.messages = messages
        self.presence = presence
        self.replies = replies
        self.lane = lane
        self.opening = opening
    }

    /// Yields a message unless it was delivered before (a resync after a reconnect repeats recent ones);
    /// edits of known messages pass. Message ids are opaque: nothing assumes they are numbers.
    mutating func deliver(_ message: ChatMessage) {
        guard delivered.insert(message.id) || message.editedAt != nil else { return }
        messages.yield(message)
    }

    /// Ends the timer, the composers and the sequences.
    func finish() {
        expiryTimer?.cancel()
        for composer in composers.values { composer.end() }
        typing.finish()
        messages.finish()
        presence.finish()
        replies.finish()
        lane.finish()  // steps already on it are still performed: sends go out, activity is dropped
    }
}
