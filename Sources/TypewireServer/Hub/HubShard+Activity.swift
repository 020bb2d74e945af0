import NIOCore
import TypewireCore

// Activity: who is doing what where, its expiry, pacing, and the views of users who blocked someone.
extension HubShard {
    func setActivity(_ activity: MemberActivity, in conversation: String, thread: String? = nil, from id: ConnectionID) async {
        guard case .lookUp(let user) = setActivityIfKnown(activity, in: conversation, thread: thread, from: id) else { return }
        guard await ensureParticipant(user, of: conversation, from: id, ref: "activity", request: .activity) else { return }
        applyActivity(activity, in: conversation, thread: thread, from: id)
    }

    /// What ``setActivityIfKnown(_:in:thread:from:)`` left to do.
    enum ActivityStep: Equatable {
        /// Nothing: the activity was set, or refused with an answer, or the socket is gone.
        case done
        /// Whether the user is in the conversation must be read first; nothing was done yet.
        case lookUp(user: String)
    }

    /// Sets a socket's activity without waiting, unless the user's membership must be read first: a stop only
    /// removes what this socket was doing there, which it was admitted to, and a conversation whose
    /// participants are cached is checked there.
    func setActivityIfKnown(_ activity: MemberActivity, in conversation: String, thread: String? = nil, from id: ConnectionID)
        -> ActivityStep
    {
        guard let identity = connections[id]?.identity else { return .done }
        if let detail = activity.detail, let refusal = Self.refusal(ofDetail: detail, limit: configuration.typing.maxDetailBytes) {
            reply(to: id, refusal)
            return .done
        }
        if let thread, !isThreadID(thread) {
            reply(to: id, Self.badThread(ref: "activity", request: .activity))
            return .done
        }
        guard isAdmittedWithoutLookUp(activity, in: conversation, user: identity.userID) else { return .lookUp(user: identity.userID) }
        applyActivity(activity, in: conversation, thread: thread, from: id)
        return .done
    }

    /// Why an activity's `detail` is refused, if it is: others read it beside the user's name ("Clawd is using
    /// <detail>"), so it is held to an id's rule: at most `limit` bytes of UTF-8, and no control, bidi or
    /// zero-width character (``DisplayName/isAcceptableID(_:maxBytes:)``).
    static func refusal(ofDetail detail: String, limit: Int) -> ServerFrame.Failure? {
        let bytes = detail.utf8.count
        if bytes > limit {
            return .init(
                code: .tooLarge, message: "The activity's \"detail\" has \(bytes) bytes of UTF-8; the limit is \(limit).",
                ref: "activity", request: .activity)
        }
        guard DisplayName.isAcceptableID(detail, maxBytes: limit) else {
            return .init(
                code: .invalidField,
                message: "The activity's \"detail\" must be a tool's name: no control, newline, bidi or zero-width characters, not empty.",
                ref: "activity", request: .activity)
        }
        return nil
    }

    /// Whether `user` may set `activity` in `conversation` without reading the store: a stop only removes
    /// what the socket was doing there, which it was admitted to; otherwise the cached participants say so.
    func isAdmittedWithoutLookUp(_ activity: MemberActivity, in conversation: String, user: String) -> Bool {
        !activity.isActive || members[conversation]?.contains(user) == true
    }

    /// Records an admitted socket's activity and tells whom it concerns.
    private func applyActivity(_ activity: MemberActivity, in conversation: String, thread: String?, from id: ConnectionID) {
        guard let identity = connections[id]?.identity, users.sharesTyping(identity.userID) else { return }
        // What the socket did before, only when a webhook is told of changes: no lookup per frame otherwise.
        let previous = webhooks?.wants(.activityChanged) == true ? board.activity(of: id, in: conversation, thread: thread) : nil
        if board.set(activity, in: conversation, connection: id, user: identity.userID, name: identity.name, now: now(), thread: thread) {
            publishActivity(of: conversation, causedBy: id)
        }
        if let previous, activity != previous {
            webhooks?.record(.activityChanged(conversation: conversation, user: identity.userID, activity: activity, thread: thread))
        }
    }

    /// Drops activity whose time ran out and tells the subscribers.
    /// - Returns: When the next entry expires (server milliseconds), if any.
    @discardableResult
    func expire() -> Int64? {
        // The other nodes expire this node's entries by themselves, at the same time.
        for conversation in board.expire(now: now()) { publishActivity(of: conversation, sharing: false) }
        return board.nextExpiry
    }

    /// Runs the expiry sweep until the calling task is cancelled, as a timer of the hub's loop: each sweep
    /// arms the next for the earliest `expiresAt`, and never later than the ttl, so an entry set meanwhile
    /// (which expires a ttl later) is never missed.
    func runExpiry() async {
        sweepExpired()
        let (cancelled, keepOpen) = AsyncStream.makeStream(of: Never.self)
        for await _ in cancelled {}  // ends when the task is cancelled
        keepOpen.finish()
        expiryTimer?.cancel()
        expiryTimer = nil
    }

    /// One sweep, then the next one armed on the loop.
    private func sweepExpired() {
        let next = expire()
        let wait = min(configuration.typing.activityTTL.wholeMilliseconds, max(1, (next ?? .max) - now()))
        expiryTimer = eventLoop.scheduleTask(in: .milliseconds(wait)) { [weak self] in
            self?.assumeIsolated { $0.sweepExpired() }
        }
    }

    /// Tells a conversation's subscribers (and the other nodes of a cluster) that its activity changed.
    /// Large groups get at most one update per ``ServerConfiguration/Typing/largeGroupInterval`` (`ActivityPacer`).
    /// - Parameters:
    ///   - sharing: Whether to tell the other nodes of a cluster this node's slice (whenever it
    ///     may have changed, except by expiry, which they apply by themselves).
    ///   - source: The socket whose own `activity` frame made the change. An update sent at once skips it:
    ///     all it would learn is its own user's entry, which no receiver shows to that user. A paced update
    ///     may carry other changes too and goes to every subscriber.
    func publishActivity(of conversation: String, sharing: Bool = true, causedBy source: ConnectionID? = nil) {
        if sharing { shareSlice(of: conversation) }
        let subscribers = subscriptions.subscribers(of: conversation)
        guard !subscribers.isEmpty else { return pacer.forget(conversation) }
        switch pacer.change(in: conversation, subscribers: subscribers.count, now: now()) {
        case .now:
            fanOutActivity(of: conversation, skipping: source)
        case .at(let time):
            scheduleActivity(of: conversation, at: time)
        case .scheduled:
            break
        }
    }

    /// Arms a timer of the hub's loop for a large group's paced update.
    private func scheduleActivity(of conversation: String, at time: Int64) {
        let delay = max(1, time - now())
        eventLoop.scheduleTask(in: .milliseconds(delay)) { [weak self] in
            self?.assumeIsolated { $0.sendScheduledActivity(of: conversation) }
        }
    }

    /// Sends a large group's paced update if it is due; a timer armed for an update that a message took
    /// early waits for the next one's time.
    private func sendScheduledActivity(of conversation: String) {
        switch pacer.wake(conversation, now: now()) {
        case .due: fanOutActivity(of: conversation)
        case .notYet(let time): scheduleActivity(of: conversation, at: time)
        case .nothing: break
        }
    }

    /// Fans a conversation's activity out: one encoding shared by every subscriber, except those who
    /// blocked someone in it, who get the state without the users they blocked. At most
    /// ``ServerConfiguration/Typing/maxEntries`` entries are listed; `total` counts the users active.
    /// - Parameter skipped: A socket that gets no frame: the one whose own change this update only tells.
    ///   A blocker's view is still recorded, so that it later compares against what it would have shown.
    func fanOutActivity(of conversation: String, skipping skipped: ConnectionID? = nil) {
        let subscribers = subscriptions.subscribers(of: conversation)
        guard !subscribers.isEmpty else { return }
        let entries = board.entries(in: conversation)
        var shared: OutboundFrame?  // encoded once, for the first socket that gets it
        var delivered = 0
        let anyoneHidden = users.visibility.hidesAnyone  // no lookup per subscriber while nobody blocked anyone
        for (id, connection) in subscribers {
            let hidesAnyone = anyoneHidden && users.visibility.hidesAnyone(from: connection.identity.userID)
            if id == skipped {
                if hidesAnyone { sendActivityView(of: conversation, to: id, entries: entries, delivery: .recordOnly) }
            } else if hidesAnyone {
                delivered += sendActivityView(of: conversation, to: id, entries: entries) ? 1 : 0
            } else {
                let frame = shared ?? Self.encode(.activity(capped(entries, in: conversation, serverTime: now())))
                shared = frame
                connection.sink.enqueue(frame)
                delivered += 1
            }
        }
        metrics.sent("activity", count: delivered)
        metrics.fanOutDeliveries.increment(by: Int64(delivered))
    }

    /// Sends a conversation's activity without the users the socket's user blocked, unless it shows
    /// what the socket last got: a change of blocked users alone sends nothing, so it cannot tell the
    /// blocker that they typed.
    /// - Parameter delivery: When the view is sent.
    /// - Returns: Whether a frame was queued.
    @discardableResult
    func sendActivityView(
        of conversation: String, to id: ConnectionID, entries: [ActivityEntry]? = nil, delivery: ViewDelivery = .ifChanged
    ) -> Bool {
        guard let connection = connections[id] else { return false }
        let hidden = users.visibility.hidden(from: connection.identity.userID)
        let visible = (entries ?? board.entries(in: conversation)).filter { !hidden.contains($0.user) }
        let changed = visible != connection.activityViews[conversation] ?? []
        connection.activityViews[conversation] = visible.isEmpty ? nil : visible  // none recorded shows nothing
        switch delivery {
        case .always: break
        case .ifChanged: guard changed else { return false }
        case .recordOnly: return false
        }
        connection.sink.enqueue(Self.encode(.activity(capped(visible, in: conversation, serverTime: now()))))
        return true
    }

    /// An update listing at most ``ServerConfiguration/Typing/maxEntries`` of the entries; `total` counts the
    /// distinct users active, whatever timelines they are active in (one user typing in 90 threads is one),
    /// and those other nodes left out of their slices.
    func capped(_ entries: [ActivityEntry], in conversation: String, serverTime: Int64) -> ActivityUpdate {
        ActivityUpdate(
            conversation: conversation, entries: Array(entries.prefix(configuration.typing.maxEntries)),
            total: ActivityUpdate.userCount(of: entries) + board.unlistedUsers(in: conversation), serverTime: serverTime
        )
    }

    /// The conversation's activity as one user may see it.
    func activityUpdate(of conversation: String, seenBy viewer: String) -> ActivityUpdate {
        let hidden = users.visibility.hidden(from: viewer)
        return capped(board.entries(in: conversation).filter { !hidden.contains($0.user) }, in: conversation, serverTime: now())
    }
}
