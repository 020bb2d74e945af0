import NIOCore
import TypewireCore

// Frames from sockets: dispatch, and subscriptions.
extension HubShard {
    /// Handles one frame from an authenticated socket, for a conversation of this shard (``Hub`` routes it).
    /// The socket's state machine has already turned away frames past their budgets (`InboundGate`).
    func handle(_ frame: ClientFrame, from id: ConnectionID, readAt: NIODeadline? = nil) async {
        guard accepts(frame, from: id, readAt: readAt) else { return }
        switch frame {
        case .hello:
            reply(to: id, .init(code: .invalidField, message: "This socket has already said hello.", ref: "hello", request: .hello))
        case .refresh:
            break  // verified by the sockets' shared context (`SocketContext`), never handed to the hub
        case .subscribe(let subscribe):
            let started = metrics.stages == nil ? nil : NIODeadline.now()
            await handshakeGate.run { await self.subscribe(id, to: subscribe.conversation, readState: subscribe.readState ?? false) }
            if let stages = metrics.stages, let started { stages.record(stages.subscribe, since: started) }
        case .unsubscribe(let unsubscribe):
            guard let connection = connections[id] else { return }
            connection.activityViews[unsubscribe.conversation] = nil
            connection.readState.remove(unsubscribe.conversation)
            apply(subscriptions.unsubscribe(id, from: unsubscribe.conversation), to: connection)
        case .activity(let request):
            let arrival = ContinuousClock.now
            await setActivity(request.activity, in: request.conversation, thread: request.thread, from: id)
            metrics.relayLatency.record(ContinuousClock.now - arrival)
        case .send(let send):
            await self.send(send, from: id)
        case .edit(let edit):
            await self.edit(edit, from: id)
        case .stream(let stream):
            await self.stream(stream, from: id)
        case .cancel(let request):
            await stop(request, from: id)
        case .read(let read):
            await self.read(read, from: id)
        case .markUnread(let mark):
            await markUnread(mark, from: id)
        case .delivered(let delivered):
            await self.delivered(delivered, from: id)
        }
    }

    /// Handles an `activity` frame at once, without a task, when nothing in it waits for the store (a stop,
    /// or a conversation whose participants are cached): the common case of a socket typing where it follows.
    /// - Returns: false, having done nothing, for any other frame or when the store must be read first: then
    ///   the frame goes to ``handle(_:from:readAt:)``.
    func handleAtOnce(_ frame: ClientFrame, from id: ConnectionID, readAt: NIODeadline? = nil) -> Bool {
        guard case .activity(let request) = frame, let user = connections[id]?.identity.userID else { return false }
        guard isAdmittedWithoutLookUp(request.activity, in: request.conversation, user: user) else { return false }
        guard accepts(frame, from: id, readAt: readAt) else { return true }
        let arrival = ContinuousClock.now
        let step = setActivityIfKnown(request.activity, in: request.conversation, thread: request.thread, from: id)
        assert(step == .done, "the membership was checked above")
        metrics.relayLatency.record(ContinuousClock.now - arrival)
        return true
    }

    /// Counts a frame as it reaches the shard, and refuses it if the server does not take its kind.
    /// - Returns: Whether to handle it.
    private func accepts(_ frame: ClientFrame, from id: ConnectionID, readAt: NIODeadline?) -> Bool {
        if let stages = metrics.stages, let readAt { stages.record(stages.readToShard, since: readAt) }
        metrics.received(frame.type)
        if !configuration.storage.storesMessages, let refusal = Self.typingOnlyRefusal(of: frame) {
            reply(to: id, refusal)
            return false
        }
        return true
    }

    private func subscribe(_ id: ConnectionID, to conversation: String, readState: Bool) async {
        guard let user = connections[id]?.identity.userID else { return }
        let limit = configuration.sockets.maxSubscriptions
        guard connections[id]!.budget.subscriptions < limit || subscriptions.contains(id, in: conversation) else {
            return reply(
                to: id,
                .init(
                    code: .forbidden, message: "This socket already follows \(limit) conversations; unsubscribe from one first.",
                    ref: conversation, request: .subscribe))
        }
        guard case .admitted(let readToAdmit) = await admit(user, to: conversation, from: id, ref: conversation, request: .subscribe) else {
            return
        }
        // Messages fanned out while the history is read are held for this socket (`JoiningSubscribers`).
        if !subscriptions.contains(id, in: conversation) { joining.begin(id, in: conversation) }
        let followsReads = readState
        // Receipts fanned out while the store is read are held for it too (`fanOutReceipts`).
        if followsReads { connections[id]?.readState.insert(conversation) } else { connections[id]?.readState.remove(conversation) }
        let participants: [ConversationMember]
        let messages: [ChatMessage]
        var historyRead: ChangeCount.Ticket?
        // The history read ends however the subscribe does; its answer is kept only once the socket follows.
        var keptHistory: [ChatMessage]?
        defer { if let historyRead { history.endRead(of: conversation, ticket: historyRead, answer: keptHistory) } }
        var reads: (unread: Int?, marks: TimelineMarks, counts: [ReadCount]?)?
        var lastSeen: [String: LastSeenRecord] = [:]
        do {
            if let readToAdmit {
                participants = readToAdmit
            } else if let named = members.participants(of: conversation) {
                participants = named
            } else {
                let ticket = members.nameChanges.ticket
                participants = try await store.participants(of: conversation)
                members.keepNames(participants, of: conversation, readWith: ticket)
            }
            // Last seen where presence is told (a large group has neither).
            if participants.count < configuration.typing.largeGroupSize { lastSeen = try await store.lastSeen(in: conversation) }
            if !configuration.storage.storesMessages {
                messages = []
            } else if let kept = history[conversation] {
                messages = kept
            } else {
                historyRead = history.beginRead(of: conversation)
                messages = try await store.recentMessages(
                    of: conversation, limit: configuration.messages.recentCount, withinBytes: configuration.messages.maxRecentBytes)
            }
            if followsReads && !configuration.storage.storesMessages {
                // Typing-only: the marks over the app's ids; its unread counts are the app's.
                let counted = participants.count > configuration.conversations.maxNamedReaders
                reads = (
                    nil,
                    seesReceipts(user) && !counted
                        ? try await store.appTimelineMarks(in: conversation, limit: configuration.conversations.maxMembers)
                        : TimelineMarks(),
                    nil
                )
            } else if followsReads {
                // Counted through the newest message sent with it: a newer one reaches the socket after, or
                // reached it before (a socket following already), and the client counts it as it arrives.
                let unread = try await store.unreadCount(
                    of: user, in: conversation, thread: nil, through: messages.compactMap { Int64($0.id) }.max() ?? 0,
                    limit: WireProtocol.maxUnreadCount)
                if !seesReceipts(user) {
                    reads = (unread, TimelineMarks(), nil)
                } else if participants.count > configuration.conversations.maxNamedReaders {
                    let counts = try await store.readCounts(in: conversation, thread: nil, messages: WireProtocol.readCountMessages)
                    reads = (unread, TimelineMarks(), counts)
                } else {
                    reads = (unread, try await store.timelineMarks(in: conversation, limit: configuration.conversations.maxMembers), nil)
                }
            }
        } catch {
            _ = joining.end(id, in: conversation)
            logger.storeFailed("subscribe failed", error: error, metadata: ["conversation": "\(conversation)"])
            return reply(
                to: id,
                .init(code: .unavailable, message: "The conversation could not be read; try again.", ref: conversation, request: .subscribe)
            )
        }
        let heldMeanwhile = joining.end(id, in: conversation, history: messages)
        // Closed, or removed from the conversation, while the store answered.
        guard connections[id] != nil, members[conversation]?.contains(user) ?? true else {
            return reply(to: id, Self.unknownConversation(conversation, ref: conversation, request: .subscribe))
        }
        let connection = connections[id]!
        apply(subscriptions.subscribe(id, as: connection, to: conversation), to: connection)
        // Kept once the conversation is followed here: its entry goes when the last subscriber leaves.
        keptHistory = messages
        let hidden = users.visibility.hidden(from: user)
        let (viewerShares, time) = (users.visibility.sharesPresence(user), now())
        let online = participants.map {
            LastSeenRule.shown(
                ConversationMember(
                    id: $0.id, name: $0.name, online: users.isOnline($0.id) && users.visibility.showsPresence(of: $0.id, to: user),
                    isBot: $0.isBot),
                hidden: hidden.contains($0.id), onlineButHiding: users.isOnline($0.id) && !users.visibility.sharesPresence($0.id),
                record: lastSeen[$0.id], viewerShares: viewerShares, now: time)
        }
        let view = activityUpdate(of: conversation, seenBy: user)
        let subscribed = ServerFrame.subscribed(
            .init(
                conversation: conversation, participants: online, activity: view,
                recentMessages: messages, presence: participants.count >= configuration.typing.largeGroupSize ? false : nil,
                unread: reads?.unread, reads: reads?.marks.reads.filter { !hidden.contains($0.user) },
                delivered: reads.flatMap { $0.counts == nil ? $0.marks.delivered.filter { !hidden.contains($0.user) } : nil },
                readCounts: reads?.counts
            ))
        if users.visibility.hidesAnyone(from: user) { connections[id]!.activityViews[conversation] = view.entries }
        deliver(Self.encode(subscribed), as: "subscribed", to: connections[id]!.sink)
        // The replies streaming now, whole so far: the parts held meanwhile are in them (the client skips those
        // by `seq`), the live ones follow.
        for part in repliesUnderWay(in: conversation) {
            deliver(Self.encode(.stream(part)), as: "stream", to: connections[id]!.sink)
        }
        for frame in heldMeanwhile { connections[id]!.sink.enqueue(frame) }
    }

}
