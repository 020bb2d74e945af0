import TypewireCore

/// What the client keeps for one open conversation: its subscription, shared by the handles open on it
/// (a list screen and a conversation screen may follow the same conversation, and a thread's screen
/// follows it too).
struct ConversationState {
    /// The open handles' views, by ``ConversationView/number``.
    var views: [Int: ConversationView] = [:]
    var expiryTimer: Task<Void, Never>?
    var isSubscribed = false
    /// Whether the last `subscribed` counted the readers rather than named them (a large group): no one is
    /// told of deliveries there, so the client reports none.
    var countsReaders = false
    /// The members the views were last told are online.
    var online: Set<String> = []
    /// Whether a `subscribe` ever went through: an `unknown_conversation` then means the user left it.
    var wasSubscribed = false
    /// Since when the server has not known the conversation (an app's backend may create it a moment after
    /// the user opened it), while the client asks again.
    var unknownSince: ContinuousClock.Instant?

    /// Every composer of every view: each is told when the connection comes and goes.
    var composers: [Composer] { views.values.flatMap { $0.composers.values } }

    /// The threads with a view that has not had their recent replies since it opened or since the
    /// connection last dropped.
    var threadsWaitingForReplies: Set<String> {
        Set(views.values.compactMap { $0.isWaitingForReplies ? $0.thread : nil })
    }

    /// Whether a view shows this timeline (nil: the main one).
    func isOpen(thread: String?) -> Bool {
        views.values.contains { $0.thread == thread }
    }

    /// Applies a change to every view's roster.
    mutating func updateRosters(_ change: (inout TypingRoster<ContinuousClock.Instant>) -> Void) {
        for number in views.keys where views[number]!.roster != nil { change(&views[number]!.roster!) }
    }

    /// Gives a message to every view of its timeline (each yields it once).
    /// - Parameter reader: The current user, for whom a new message of another adds to the unread count
    ///   (and one of theirs is a read); nil for messages the server's counts already hold (a snapshot).
    /// - Returns: Whether a view took it as new.
    @discardableResult
    mutating func deliver(_ message: ChatMessage, reader: String?) -> Bool {
        var isNew = false
        for number in views.keys where views[number]!.thread == message.thread {
            if views[number]!.deliver(message, reader: reader) { isNew = true }
        }
        return isNew
    }

    /// Applies a change to the read state of every view of one timeline (nil: the main one), and publishes
    /// each that changed.
    mutating func updateReadStates(thread: String?, _ change: (inout ReadState) -> Void) {
        for number in views.keys where views[number]!.thread == thread { views[number]!.updateReadState(change) }
    }

    func yield(_ members: [ConversationMember]) {
        for view in views.values { view.members.yield(members) }
    }

    /// Tells every view a member came online or went offline, and keeps who was told online.
    mutating func yield(_ presence: ServerFrame.Presence) {
        if presence.online { online.insert(presence.user) } else { online.remove(presence.user) }
        for view in views.values { view.presence.yield(presence) }
    }

    func yield(_ part: ServerFrame.StreamDelta) {
        for view in views.values where view.thread == part.thread { view.replies.yield(part) }
    }

    /// Ends the timer and every view.
    func finish() {
        expiryTimer?.cancel()
        for view in views.values { view.finish() }
    }
}

/// One handle's view of a conversation (its main timeline or one thread): its typing roster, its
/// sequences, its ordered lane and its composers.
struct ConversationView {
    /// Tells this handle from the others opened on the client.
    let number: Int
    /// The thread it shows (the parent message's id); nil for the main timeline.
    let thread: String?
    /// Who is active in its timeline (and, for the main one, in each thread); nil before `subscribed`.
    var roster: TypingRoster<ContinuousClock.Instant>?
    var lastPublished: TypingState = .idle
    var typing: AsyncStream<TypingState>.Continuation
    var messages: AsyncStream<ChatMessage>.Continuation
    var presence: AsyncStream<ServerFrame.Presence>.Continuation
    var replies: AsyncStream<ServerFrame.StreamDelta>.Continuation
    var members: AsyncStream<[ConversationMember]>.Continuation
    /// Its timeline's read state, as last published.
    var readState = ReadState()
    /// Whether ``readState`` was published (the first state goes out even if it equals the empty one).
    var hasReadState = false
    var readStates: AsyncStream<ReadState>.Continuation
    /// The ordered lane of the handle and its composers (``ConversationStep``).
    var lane: AsyncStream<ConversationStep>.Continuation
    /// The composers typing here; ended with the view.
    var composers: [ObjectIdentifier: Composer] = [:]
    /// The ids of the messages delivered lately (a resync repeats only the latest ones).
    var delivered = RecentIDs(capacity: 1_000)
    /// A thread's view that has not had the thread's recent replies since it opened or since the
    /// connection last dropped (they are fetched after the next `subscribed`).
    var isWaitingForReplies: Bool

    /// Yields a message unless it was delivered before (a resync after a reconnect repeats recent ones);
    /// edits of known messages pass. Message ids are opaque: nothing assumes they are numbers.
    /// A new message (not an edit) of another adds to the unread count of `reader`, one of theirs reads.
    /// - Returns: Whether it was new (not an edit, not delivered before).
    mutating func deliver(_ message: ChatMessage, reader: String?) -> Bool {
        let isNew = delivered.insert(message.id)
        guard isNew || message.editedAt != nil else { return false }
        messages.yield(message)
        guard isNew, message.editedAt == nil else { return false }
        if let reader { updateReadState { $0.messageArrived(message, currentUser: reader) } }
        return true
    }

    /// Changes the read state and publishes it if it changed.
    mutating func updateReadState(_ change: (inout ReadState) -> Void) {
        var state = readState
        change(&state)
        guard state != readState || !hasReadState else { return }
        readState = state
        hasReadState = true
        readStates.yield(state)
    }

    /// Ends the composers, the sequences and the lane (steps already on it are still performed: sends go
    /// out, activity is dropped).
    func finish() {
        for composer in composers.values { composer.end() }
        typing.finish()
        messages.finish()
        presence.finish()
        replies.finish()
        readStates.finish()
        members.finish()
        lane.finish()
    }
}
