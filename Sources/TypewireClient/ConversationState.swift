import TypewireCore

/// What the client keeps for one open conversation: its typing roster and subscription, shared by the
/// handles open on it (a list screen and a conversation screen may follow the same conversation).
struct ConversationState {
    /// The open handles' views, by ``ConversationView/number``.
    var views: [Int: ConversationView] = [:]
    var roster: TypingRoster<ContinuousClock.Instant>?
    var lastPublished: TypingState = .idle
    var expiryTimer: Task<Void, Never>?
    var isSubscribed = false
    /// Whether a `subscribe` ever went through: an `unknown_conversation` then means the user left it.
    var wasSubscribed = false
    /// Since when the server has not known the conversation (an app's backend may create it a moment after
    /// the user opened it), while the client asks again.
    var unknownSince: ContinuousClock.Instant?

    /// Every composer of every view: each is told when the connection comes and goes.
    var composers: [Composer] { views.values.flatMap { $0.composers.values } }

    /// Gives a message to every view (each yields it once).
    mutating func deliver(_ message: ChatMessage) {
        for number in views.keys { views[number]!.deliver(message) }
    }

    func yield(_ state: TypingState) {
        for view in views.values { view.typing.yield(state) }
    }

    func yield(_ presence: ServerFrame.Presence) {
        for view in views.values { view.presence.yield(presence) }
    }

    func yield(_ part: ServerFrame.StreamDelta) {
        for view in views.values { view.replies.yield(part) }
    }

    /// Ends the timer and every view.
    func finish() {
        expiryTimer?.cancel()
        for view in views.values { view.finish() }
    }
}

/// One handle's view of a conversation: its sequences, its ordered lane and its composers.
struct ConversationView {
    /// Tells this handle from the others opened on the client.
    let number: Int
    var typing: AsyncStream<TypingState>.Continuation
    var messages: AsyncStream<ChatMessage>.Continuation
    var presence: AsyncStream<ServerFrame.Presence>.Continuation
    var replies: AsyncStream<ServerFrame.StreamDelta>.Continuation
    /// The ordered lane of the handle and its composers (``ConversationStep``).
    var lane: AsyncStream<ConversationStep>.Continuation
    /// The composers typing here; ended with the view.
    var composers: [ObjectIdentifier: Composer] = [:]
    /// The ids of the messages delivered lately (a resync repeats only the latest ones).
    var delivered = RecentIDs(capacity: 1_000)

    /// Yields a message unless it was delivered before (a resync after a reconnect repeats recent ones);
    /// edits of known messages pass. Message ids are opaque: nothing assumes they are numbers.
    mutating func deliver(_ message: ChatMessage) {
        guard delivered.insert(message.id) || message.editedAt != nil else { return }
        messages.yield(message)
    }

    /// Ends the composers, the sequences and the lane (steps already on it are still performed: sends go
    /// out, activity is dropped).
    func finish() {
        for composer in composers.values { composer.end() }
        typing.finish()
        messages.finish()
        presence.finish()
        replies.finish()
        lane.finish()
    }
}
