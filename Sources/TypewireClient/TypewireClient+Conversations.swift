import TypewireCore

extension TypewireClient {
    /// Opens a conversation: subscribes now (or once connected) and after every reconnect.
    /// Close the handle when done; nothing it started outlives it. Several handles may be open on one
    /// conversation (a list and a conversation screen): each gets every update, and the subscription
    /// ends when the last one closes.
    /// - Parameters:
    ///   - id: The conversation's id.
    ///   - thread: The id of the message whose thread the handle shows (see
    ///     ``ConversationHandle/thread(_:)``); nil (the default): the conversation's main timeline.
    public func conversation(_ id: String, thread: String? = nil) -> ConversationHandle {
        let (typing, typingContinuation) = AsyncStream.makeStream(of: TypingState.self, bufferingPolicy: .bufferingNewest(1))
        let (messages, messagesContinuation) = AsyncStream.makeStream(of: ChatMessage.self)
        let (presence, presenceContinuation) = AsyncStream.makeStream(of: ServerFrame.Presence.self)
        let (replies, repliesContinuation) = AsyncStream.makeStream(of: ServerFrame.StreamDelta.self)
        let (readStates, readStatesContinuation) = AsyncStream.makeStream(of: ReadState.self, bufferingPolicy: .bufferingNewest(1))
        let (members, membersContinuation) = AsyncStream.makeStream(of: [ConversationMember].self, bufferingPolicy: .bufferingNewest(1))
        let (steps, lane) = AsyncStream.makeStream(of: ConversationStep.self)
        openings += 1
        let number = openings
        endings[id] = nil
        var view = ConversationView(
            number: number, thread: thread, typing: typingContinuation, messages: messagesContinuation, presence: presenceContinuation,
            replies: repliesContinuation, members: membersContinuation, readStates: readStatesContinuation, lane: lane,
            isWaitingForReplies: thread != nil
        )
        // Another view of the same timeline knows who is active there until this one's `subscribed`.
        if let twin = conversations[id]?.views.values.first(where: { $0.thread == thread }) {
            view.roster = twin.roster
            view.lastPublished = twin.lastPublished
            view.readState = twin.readState
            view.hasReadState = twin.hasReadState
        }
        conversations[id, default: ConversationState()].views[number] = view
        let timeline = Timeline(id, thread: thread)
        Task { [weak self] in
            for await step in steps { await self?.perform(step, in: timeline, view: number) }
        }
        typingContinuation.yield(view.lastPublished)
        if view.hasReadState { readStatesContinuation.yield(view.readState) }
        // A later handle gets the recent messages and who is online from a `subscribed` of its own (and a
        // thread's handle its thread's recent replies, fetched when it comes).
        subscribe(to: id)
        return ConversationHandle(
            id: id, thread: thread, view: number, client: self, lane: lane, typing: typing, messages: messages, presence: presence,
            replies: replies, members: members, readState: readStates
        )
    }

    /// Performs a step of a handle's lane. Activity applies only while the handle is open, except a stop:
    /// a handle's composers stop as it closes, and while another handle keeps the conversation open that
    /// stop must still go out (else "is typing" stays for the ttl). A message goes out even if its handle
    /// closed meanwhile (the user sent it).
    func perform(_ step: ConversationStep, in timeline: Timeline, view: Int) {
        let isOpen = conversations[timeline.conversation]?.views[view] != nil
        switch step {
        case .activity(let activity):
            if isOpen || (activity == .none && conversations[timeline.conversation] != nil) { setActivity(activity, in: timeline) }
        case .sent:
            if isOpen, !storesMessages, activeIn.contains(timeline) { setActivity(.none, in: timeline) }
        case .send(let text, let continuation):
            submit(text, in: timeline, continuation: continuation)
        }
    }

    /// Closes one handle: its composers, sequences and lane end. Closing the last handle of a thread stops
    /// the user's activity in it; closing the last handle of a conversation stops the user's activity
    /// there (leaving ends typing), ends its bot replies, fails its pending edits, unsubscribes and stops
    /// its timer. Messages already sent stay pending until acknowledged.
    func close(_ id: String, view: Int) {
        guard let closed = conversations[id]?.views.removeValue(forKey: view) else { return }
        closed.finish()
        if conversations[id]?.views.isEmpty == true { return close(id) }
        let timeline = Timeline(id, thread: closed.thread)
        guard conversations[id]?.isOpen(thread: closed.thread) == false else { return }
        endReads(in: timeline)
        if activeIn.remove(timeline) != nil { transmit(.activity(.init(conversation: id, activity: .none, thread: closed.thread))) }
    }

    /// Ends a conversation for every handle (the last one closed, or the server ended the membership).
    func close(_ id: String) {
        guard let conversation = conversations.removeValue(forKey: id) else { return }
        conversation.finish()
        for timeline in Set(readReporters.keys.map(\.timeline)) where timeline.conversation == id { endReads(in: timeline) }
        for (messageId, reply) in replies where reply.timeline.conversation == id { endReply(messageId) }
        for (messageId, edit) in pendingEdits where edit.conversation == id {
            pendingEdits.removeValue(forKey: messageId)
            edit.fail(.closed(id))
        }
        for timeline in activeIn where timeline.conversation == id {
            activeIn.remove(timeline)
            transmit(.activity(.init(conversation: id, activity: .none, thread: timeline.thread)))
        }
        retrySettled(.subscription(id))
        transmit(.unsubscribe(.init(conversation: id)))
    }

    /// The server ended the user's membership (removed, or the conversation is gone): the handles end as
    /// if closed, and nothing is sent there again.
    func conversationEnded(_ id: String, error: TypewireClientError? = nil) {
        activeIn = activeIn.filter { $0.conversation != id }
        for key in readReporters.keys where key.timeline.conversation == id {
            readReporters[key] = nil
            readTimers.removeValue(forKey: key)?.cancel()
        }
        if let error { endings[id] = error }
        close(id)
    }

    /// The server does not know the conversation, or the user is not in it. One that was followed here
    /// before ends at once (the user left it); one never followed yet is asked for again with backoff for
    /// ``Configuration/conversationWait``, since an app's backend may create it a moment later, and then
    /// ends with the server's error (``ConversationHandle/endReason``).
    func conversationUnknown(_ id: String, error: TypewireClientError) {
        guard let conversation = conversations[id] else { return }
        guard !conversation.wasSubscribed else { return conversationEnded(id, error: error) }
        let since = conversation.unknownSince ?? .now
        conversations[id]!.unknownSince = since
        guard ContinuousClock.now - since < configuration.conversationWait else { return conversationEnded(id, error: error) }
        retryLater(.subscription(id))
    }

    /// Whether the server did not know the conversation when last asked, and the client asks again.
    func isWaitingFor(_ id: String) -> Bool {
        conversations[id]?.unknownSince != nil
    }

    /// Why the conversation's handles ended, if the server ended them.
    func endReason(of id: String) -> TypewireClientError? {
        endings[id]
    }

    /// A composer for an open conversation, with the server's intervals unless given others.
    func makeComposer(for handle: ConversationHandle, configuration: TypingEmitter<ContinuousClock.Instant>.Configuration?) -> Composer {
        let intervals =
            configuration ?? serverConfiguration.map {
                .init(refreshInterval: .milliseconds($0.refreshInterval), idleTimeout: .milliseconds($0.idleTimeout))
            } ?? .init()
        let composer = Composer(handle: handle, configuration: intervals, isConnected: welcomed)
        if conversations[handle.id]?.views[handle.view] != nil {
            conversations[handle.id]!.views[handle.view]!.composers[ObjectIdentifier(composer)] = composer
        } else {
            composer.end()
        }
        return composer
    }

    /// Sets the user's own activity in a timeline of an open conversation (what a composer or a bot
    /// reports).
    func setActivity(_ activity: MemberActivity, in timeline: Timeline) {
        guard conversations[timeline.conversation] != nil else { return }
        if activity.isActive { activeIn.insert(timeline) } else { activeIn.remove(timeline) }
        transmit(.activity(.init(conversation: timeline.conversation, activity: activity, thread: timeline.thread)))
    }

    /// The open conversations whose `subscribed` arrived on the current connection (for tests).
    var subscribedConversations: Set<String> {
        Set(conversations.filter { $0.value.isSubscribed }.keys)
    }

    /// What is alive, for leak tests: open conversations, expiry timers, composers and their timers, bot
    /// replies, and edits waiting for the server.
    var liveCounts: LiveCounts {
        LiveCounts(
            conversations: conversations.count,
            timers: conversations.values.filter { $0.expiryTimer != nil }.count,
            composers: conversations.values.reduce(0) { $0 + $1.composers.count },
            composerTimers: conversations.values.reduce(0) { $0 + $1.composers.filter(\.hasTimer).count },
            replies: replies.count,
            pendingEdits: pendingEdits.count
        )
    }

    /// Publishes each view's typing state and arms the conversation's timer for the next expiry.
    func publish(_ id: String) {
        guard var conversation = conversations[id] else { return }
        let now = ContinuousClock.now
        var deadline: ContinuousClock.Instant?
        for number in conversation.views.keys {
            guard var roster = conversation.views[number]!.roster else { continue }
            roster.removeExpired(now: now)
            conversation.views[number]!.roster = roster
            let state = typingState(of: roster, at: now)
            if state != conversation.views[number]!.lastPublished {
                conversation.views[number]!.lastPublished = state
                conversation.views[number]!.typing.yield(state)
            }
            deadline = [deadline, roster.nextDeadline].compactMap { $0 }.min()
        }
        conversation.expiryTimer?.cancel()
        conversation.expiryTimer = deadline.map { deadline in
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled else { return }
                await self?.publish(id)
            }
        }
        conversations[id] = conversation
    }

    /// What a roster shows at `now`, in words.
    private func typingState(of roster: TypingRoster<ContinuousClock.Instant>, at now: ContinuousClock.Instant) -> TypingState {
        let typers = roster.typers(at: now)
        let total = typers.count + roster.unlisted
        return TypingState(
            typers: typers, text: formatter.text(for: typers, total: total),
            accessibilityText: formatter.accessibilityText(for: typers, total: total),
            replying: roster.replying(at: now).compactMapValues { count in
                formatter.replyingText(count: count).map {
                    ThreadReplying(count: count, text: $0, accessibilityText: formatter.accessibilityReplyingText(count: count) ?? $0)
                }
            }
        )
    }
}

/// What a client holds alive (for leak tests).
struct LiveCounts: Equatable {
    var conversations = 0
    var timers = 0
    var composers = 0
    var composerTimers = 0
    var replies = 0
    var pendingEdits = 0
}
