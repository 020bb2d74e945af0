import NIOCore
import TypewireCore

// Bots' streamed replies (turns): their parts, a member's stop, and the ends the server decides.
extension HubShard {
    /// The longest `reason` a bot gives for a failed reply, and the longest `asker` id, in characters.
    static let maxReplyNote = 200

    /// A bot streams a reply: each part is fanned out as it comes, numbered (`seq`); the final part says how
    /// the reply ended, stores the whole reply as a message (unless it failed, or was stopped before any
    /// text) and clears the bot's activity (in typing-only mode it only clears the activity). A part of a
    /// reply that ended is refused with `turn_ended`. The first part's `asker` holds for the whole reply, unless
    /// the conversation lets any member stop a reply (``Conversation/StopRule/members``, read from the store
    /// then): such a reply answers nobody in particular.
    func stream(_ part: ClientFrame.Stream, from id: ConnectionID) async {
        guard let identity = connections[id]?.identity else { return }
        guard identity.isBot else {
            return reply(
                to: id,
                .init(
                    code: .forbidden,
                    message:
                        "Only bots (a token with the bot role, or a user the server API made a bot) stream replies; send a message instead.",
                    ref: part.messageId, request: .stream))
        }
        if let refusal = refusal(ofPart: part) { return reply(to: id, refusal) }
        guard await ensureParticipant(identity.userID, of: part.conversation, from: id, ref: part.messageId, request: .stream) else {
            return
        }
        let key = StreamKey(conversation: part.conversation, messageId: part.messageId, bot: identity.userID)
        var part = part
        if part.asker != nil, streams.withLockedValue({ $0[key] == nil }) {
            guard let rule = await stopRule(of: part.conversation, from: id, ref: part.messageId) else { return }
            if rule == .members { part.asker = nil }
        }
        let (maxOpen, maxLength) = (configuration.messages.maxOpenReplies, configuration.messages.maxLength)
        // One turn of the node's replies: a bot streaming in conversations of two shards cannot pass its cap.
        let outcome = streams.withLockedValue { $0.take(part, bot: identity.userID, at: now(), maxOpen: maxOpen, maxLength: maxLength) }
        let (text, seq): (String, Int64)
        var (asker, stoppedBy): (String?, String?)
        switch outcome {
        case .ended(let end):
            return reply(
                to: id,
                .init(
                    code: .turnEnded,
                    message: "The reply \(part.messageId) has ended (\(end)): the members saw its end. Start a new reply with a new id.",
                    ref: part.messageId, request: .stream))
        case .tooManyOpen:
            return reply(
                to: id,
                .init(
                    code: .rateLimited, message: "This bot streams \(maxOpen) replies already; finish one before starting another.",
                    ref: part.messageId, request: .stream))
        case .tooLong(let wasOpen, let seq, let thread):
            if wasOpen {
                endReply(
                    key,
                    ServerFrame.StreamDelta(
                        conversation: key.conversation, messageId: key.messageId, user: key.bot, delta: "", final: true, thread: thread,
                        seq: seq, end: .failed, reason: "The reply passed \(maxLength) characters."))
            }
            return reply(
                to: id,
                .init(code: .tooLarge, message: "The reply has more than \(maxLength) characters.", ref: part.messageId, request: .stream))
        case .accepted(let whole, let number, let isFirst, let answering, let stopper):
            (text, seq, asker, stoppedBy) = (whole, number, answering, stopper)
            if isFirst {
                webhooks?.record(.replyStarted(conversation: part.conversation, replyId: part.messageId, bot: identity.userID))
                if !part.isFinal { armReplyTimer(key, at: now() + configuration.messages.replyTimeout.wholeMilliseconds, rearm: true) }
            }
        }
        let end = part.isFinal ? part.end ?? .finished : nil
        let delta = ServerFrame.StreamDelta(
            conversation: part.conversation, messageId: part.messageId, user: identity.userID, delta: part.delta, final: part.isFinal,
            thread: part.thread, seq: seq, end: end, by: end == .cancelled ? stoppedBy : nil, reason: end == .failed ? part.reason : nil,
            asker: asker)
        guard let end else {
            broadcast(Self.encode(.stream(delta)), as: "stream", to: part.conversation)
            cluster?.publish(.stream(delta))  // a part too large for the bus is dropped there: the stored reply carries it
            return
        }
        endReply(key, delta, clearsActivity: !stores(end, text: text))
        guard stores(end, text: text) else { return }
        await self.send(
            .init(
                conversation: part.conversation, clientMessageId: ReplyID.clientMessageId(ofReply: part.messageId), text: text,
                thread: part.thread),
            from: id)
    }

    /// A member asks to stop a bot's reply: the bot's sockets on this node are told at once (`cancel`),
    /// and the reply's timer ends it for everyone if the bot has not within the grace
    /// (``ServerConfiguration/Messages/stopGrace``). Only the member the reply answers may stop it, when
    /// the bot named one (`asker`): a person stops the answer to their own question, not another's; a
    /// reply to the room may be stopped by any member.
    func stop(_ request: ClientFrame.Cancel, from id: ConnectionID) async {
        guard let identity = connections[id]?.identity else { return }
        guard await ensureParticipant(identity.userID, of: request.conversation, from: id, ref: request.messageId, request: .cancel) else {
            return
        }
        let outcome = streams.withLockedValue { $0.stop(request.messageId, in: request.conversation, by: identity.userID, at: now()) }
        switch outcome {
        case .notUnderWay(let ended):
            if ended == nil, stopElsewhere(request, by: identity.userID, from: id) { return }
            let how = ended.map { "it has ended (\($0))" } ?? "it has ended, or never began"
            reply(
                to: id,
                .init(
                    code: .turnEnded, message: "No reply \(request.messageId) is under way in this conversation: \(how).",
                    ref: request.messageId, request: .cancel))
        case .notTheAsker(let asker):
            reply(to: id, Self.notTheAsker(asker, ref: request.messageId))
        case .askedBefore:
            break  // the bot was told; the grace runs from the first stop
        case .asked(let bots):
            tellBots(bots, toStop: request.messageId, in: request.conversation, by: identity.userID)
        }
    }

    /// Another node asked to stop a reply a bot streams here (``ClusterEvent/stopReply(conversation:messageId:by:)``):
    /// as a stop from a member here, but nobody to answer.
    func stopAsked(_ messageId: String, in conversation: String, by user: String) {
        if case .asked(let bots) = streams.withLockedValue({ $0.stop(messageId, in: conversation, by: user, at: now()) }) {
            tellBots(bots, toStop: messageId, in: conversation, by: user)
        }
    }

    /// A stop for a reply no bot streams on this node: if one streams it on another node (as the bus relayed
    /// its parts), the stop goes there, where the reply is held and ended.
    /// - Returns: Whether the stop was answered here (sent on, or refused to someone it does not answer).
    private func stopElsewhere(_ request: ClientFrame.Cancel, by user: String, from id: ConnectionID) -> Bool {
        let timeout = configuration.messages.replyTimeout.wholeMilliseconds
        let remote = remoteReplies.replies(request.messageId, in: request.conversation, at: now(), timeout: timeout)
        guard !remote.isEmpty, let cluster else { return false }
        if let asker = remote.compactMap(\.reply.asker).first, asker != user, remote.allSatisfy({ $0.key.bot != user }) {
            reply(to: id, Self.notTheAsker(asker, ref: request.messageId))
        } else {
            cluster.publish(.stopReply(conversation: request.conversation, messageId: request.messageId, by: user))
        }
        return true
    }

    /// Tells the bots' sockets on this node that `user` asks to stop the reply, and arms each reply's grace.
    private func tellBots(_ bots: [String], toStop messageId: String, in conversation: String, by user: String) {
        let frame = Self.encode(.cancel(.init(conversation: conversation, messageId: messageId, by: user)))
        for bot in bots {
            for socket in users.sockets(of: bot) {
                guard let sink = connections[socket]?.sink else { continue }
                deliver(frame, as: "cancel", to: sink)
            }
            armReplyTimer(StreamKey(conversation: conversation, messageId: messageId, bot: bot), at: now() + grace, rearm: false)
        }
    }

    /// Who may stop a reply in the conversation, as the store says; nil, with the socket answered
    /// `unavailable`, when the store cannot be read.
    private func stopRule(of conversation: String, from id: ConnectionID, ref: String) async -> Conversation.StopRule? {
        do {
            return try await store.conversation(conversation)?.stopRule ?? .asker
        } catch {
            logger.storeFailed("reading a conversation's stop rule failed", error: error)
            reply(
                to: id,
                .init(code: .unavailable, message: "The server cannot read its storage now; try again shortly.", ref: ref, request: .stream)
            )
            return nil
        }
    }

    private static func notTheAsker(_ asker: String, ref: String) -> ServerFrame.Failure {
        .init(code: .forbidden, message: "This reply answers \(asker): only they may stop it.", ref: ref, request: .cancel)
    }

    /// The replies streaming in a conversation, here and on the other nodes, each whole so far: what a socket
    /// that subscribes now gets after `subscribed`.
    func repliesUnderWay(in conversation: String) -> [ServerFrame.StreamDelta] {
        streams.withLockedValue { $0.catchUp(in: conversation) }
            + remoteReplies.catchUp(in: conversation, at: now(), timeout: configuration.messages.replyTimeout.wholeMilliseconds)
    }

    /// Whether a reply that ended so is stored as a message (a failed one never; a stopped one if it has text).
    private func stores(_ end: ReplyEnd, text: String) -> Bool {
        guard configuration.storage.storesMessages else { return false }
        return end == .finished || (end == .cancelled && !text.isEmpty)
    }

    private var grace: Int64 { configuration.messages.stopGrace.wholeMilliseconds }

    /// A part's fields the server refuses before anything else.
    private func refusal(ofPart part: ClientFrame.Stream) -> ServerFrame.Failure? {
        if let thread = part.thread, !isThreadID(thread) { return Self.badThread(ref: part.messageId, request: .stream) }
        if let end = part.end, !part.isFinal || !ReplyEnd.sentByBots.contains(end) {
            return .init(
                code: .invalidField,
                message:
                    "`end` goes with the final part, and is one of finished, cancelled or failed (the server alone times a reply out).",
                ref: part.messageId, request: .stream)
        }
        if (part.reason?.count ?? 0) > Self.maxReplyNote || (part.asker?.count ?? 0) > Self.maxReplyNote {
            return .init(
                code: .tooLarge, message: "`reason` and `asker` have at most \(Self.maxReplyNote) characters.", ref: part.messageId,
                request: .stream)
        }
        return nil
    }

    /// Tells every member that a reply ended (the final part, here and on the other nodes), clears the bot's
    /// activity where the reply was written (unless the stored reply will), and tells the webhooks.
    private func endReply(_ key: StreamKey, _ end: ServerFrame.StreamDelta, clearsActivity: Bool = true) {
        broadcast(Self.encode(.stream(end)), as: "stream", to: key.conversation)
        cluster?.publish(.stream(end))
        if clearsActivity, board.clear(user: key.bot, in: key.conversation, thread: end.thread) { publishActivity(of: key.conversation) }
        webhooks?.record(
            .replyFinished(
                conversation: key.conversation, replyId: key.messageId, bot: key.bot, end: end.end ?? .finished, by: end.by,
                reason: end.reason))
    }

    /// Arms a timer of this shard's loop that ends the reply when the clock says so
    /// (``OpenReplies/due(_:at:timeout:grace:)``). A reply has one own timer (`rearm`), armed at its first part
    /// for its timeout and armed again for the next deadline while it is under way, and one more at a stop,
    /// for the grace. A reply's conversation is this shard's, so its timers run here.
    private func armReplyTimer(_ key: StreamKey, at time: Int64, rearm: Bool) {
        eventLoop.scheduleTask(in: .milliseconds(max(1, time - now()))) { [weak self] in
            self?.assumeIsolated { $0.replyTimerFired(key, rearm: rearm) }
        }
    }

    private func replyTimerFired(_ key: StreamKey, rearm: Bool) {
        let timeout = configuration.messages.replyTimeout.wholeMilliseconds
        switch streams.withLockedValue({ $0.due(key, at: now(), timeout: timeout, grace: grace) }) {
        case .gone:
            break
        case .wait(let until):
            if rearm { armReplyTimer(key, at: until, rearm: true) }
        case .end(let end, let by, let seq, let thread):
            endReply(
                key,
                ServerFrame.StreamDelta(
                    conversation: key.conversation, messageId: key.messageId, user: key.bot, delta: "", final: true, thread: thread,
                    seq: seq,
                    end: end, by: by))
        }
    }
}
