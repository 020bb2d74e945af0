import TypewireCore

extension TypewireClient {
    /// Begins a bot's reply in an open conversation: the bot shows as thinking at once.
    func beginReply(_ messageId: String, answering asker: String?, in handle: ConversationHandle) throws -> BotReply {
        let conversation = handle.id
        guard conversations[conversation] != nil else { throw TypewireClientError.closed(conversation) }
        guard replies[messageId] == nil else {
            throw TypewireClientError(
                reason: .server(.invalidField), message: "A reply with id \(messageId) is already under way; give each reply its own id.")
        }
        let (cancellations, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        var reply = ReplyState(
            timeline: Timeline(conversation, thread: handle.thread), machine: BotActivity(), asker: asker, cancellations: continuation)
        try reply.machine.handle(.startThinking, now: .now)
        replies[messageId] = reply
        sendReplyActivity(messageId)
        armReplyTimer(messageId)
        return BotReply(messageId: messageId, client: self, handle: handle, cancellations: cancellations)
    }

    /// Thinking or tool use.
    func advanceReply(_ messageId: String, _ input: BotActivity<ContinuousClock.Instant>.Input) throws {
        try withOpenReply(messageId) { reply in try reply.machine.handle(input, now: .now) }
        sendReplyActivity(messageId)
        armReplyTimer(messageId)
    }

    func writeReply(_ messageId: String, _ text: String) throws {
        let reply = try withOpenReply(messageId) { reply in
            let before = reply.machine.activity
            try reply.machine.handle(.chunk(isFinal: false), now: .now)
            reply.text += text
            reply.unsent += text
            return (changed: reply.machine.activity != before, lastStreamed: reply.lastStreamed)
        }
        if reply.changed { sendReplyActivity(messageId) }
        let interval = configuration.streamInterval
        if reply.lastStreamed.map({ ContinuousClock.now >= $0 + interval }) ?? true { flushReply(messageId) }
        armReplyTimer(messageId)
    }

    func finishReply(_ messageId: String, _ text: String, end: ReplyEnd) async throws -> String {
        let reply = try withOpenReply(messageId) { reply in
            try reply.machine.handle(.chunk(isFinal: true), now: .now)
            reply.text += text
            reply.unsent += text
            reply.isFinishing = true
            reply.timer?.cancel()
            reply.timer = nil
            return reply
        }
        let clientMessageId = ReplyState.clientMessageId(of: messageId)
        activeIn.remove(reply.timeline)  // storing the reply (or its final part) clears the bot's activity
        let end = end == .finished ? nil : end
        guard storesMessages, end == nil || (end == .cancelled && !reply.text.isEmpty) else {
            // Typing-only, or a stop before any text: the final part ends the reply for the members; nothing
            // is stored, no ack comes.
            removeReply(messageId)
            transmit(
                .stream(
                    .init(
                        conversation: reply.timeline.conversation, messageId: messageId, delta: reply.unsent, isFinal: true,
                        thread: reply.timeline.thread, end: end)))
            return messageId
        }
        return try await withCheckedThrowingContinuation { continuation in
            queueSend(clientMessageId, in: reply.timeline, text: reply.text, continuation: continuation)
            // The final part carries the whole text, so parts refused or lost on the way do not matter; if
            // it cannot go now, the whole text goes as a `send` after the reconnect (stored once either way).
            let last = ClientFrame.Stream(
                conversation: reply.timeline.conversation, messageId: messageId, delta: reply.unsent, isFinal: true, text: reply.text,
                thread: reply.timeline.thread, end: end)
            transmit(.stream(last))
        }
    }

    func failReply(_ messageId: String, reason: String?) {
        guard let reply = replies[messageId], !reply.isFinishing else { return }
        endReply(messageId)
        guard reply.failure == nil else { return }
        // The end tells every member at once; the activity's stop covers a server that did not see the reply.
        transmit(
            .stream(
                .init(
                    conversation: reply.timeline.conversation, messageId: messageId, delta: "", isFinal: true,
                    thread: reply.timeline.thread,
                    end: .failed, reason: reason.map { String($0.prefix(200)) })))
        setActivity(.none, in: reply.timeline)
    }

    /// A member asked to stop a reply of this bot: its ``BotReply/cancellations`` say who.
    func replyStopRequested(_ request: ServerFrame.CancelRequest) {
        replies[request.messageId]?.cancellations.yield(request.by)
    }

    /// The server ended a reply of this bot that the bot had not ended (a stop not honoured within the grace,
    /// a silence past the reply timeout), as it told every member: the reply's machine learns the end, its
    /// stops end, and the bot's next call on it throws `turn_ended` at once.
    func replyEnded(_ part: ServerFrame.StreamDelta) {
        guard var reply = replies[part.messageId], reply.timeline.conversation == part.conversation, !reply.isFinishing,
            reply.failure == nil
        else { return }
        let end = part.end ?? .finished
        _ = try? reply.machine.handle(.end(end), now: .now)
        reply.timer?.cancel()
        reply.timer = nil
        reply.failure = TypewireClientError(
            reason: .server(.turnEnded),
            message: "The server ended the reply \(part.messageId) for every member (\(end)); begin a new reply to go on.")
        reply.cancellations.finish()
        replies[part.messageId] = reply
        setActivity(.none, in: reply.timeline)
    }

    /// Ends a reply's bookkeeping; a reply still waiting for its `ack` keeps waiting as a pending send.
    func endReply(_ messageId: String) {
        removeReply(messageId)?.timer?.cancel()
    }

    /// Forgets a reply, and ends its stream of stops.
    @discardableResult
    private func removeReply(_ messageId: String) -> ReplyState? {
        let reply = replies.removeValue(forKey: messageId)
        reply?.cancellations.finish()
        return reply
    }

    /// The server refused a part or the end of a reply.
    func replyRefused(_ messageId: String, error: TypewireClientError, retry: Bool) {
        guard let reply = replies[messageId] else { return }
        let clientMessageId = ReplyState.clientMessageId(of: messageId)
        if reply.isFinishing {
            if retry { return retryLater(.message(clientMessageId)) }
            retrySettled(.message(clientMessageId))
            removeReply(messageId)
            settleSend(clientMessageId)?.continuation?.resume(throwing: error)
        } else if retry {
            return  // a part refused for now: others see a gap until the final part brings the whole text
        } else {
            reply.timer?.cancel()
            var failed = reply
            failed.failure = error  // the bot's next call throws it
            failed.timer = nil
            replies[messageId] = failed
            setActivity(.none, in: reply.timeline)
        }
    }

    /// The `ack` of a finished reply ends it.
    func replyAcknowledged(_ clientMessageId: String) {
        guard let messageId = ReplyID.replyMessageId(of: clientMessageId) else { return }
        removeReply(messageId)
    }

    /// After a reconnect: the server forgot the bot's activity with the old socket.
    func refreshReplyActivity(_ messageId: String) {
        guard let reply = replies[messageId], !reply.isFinishing, reply.failure == nil else { return }
        sendReplyActivity(messageId)
    }

    /// Runs `body` on an open reply and keeps what it changed, unless it throws.
    @discardableResult
    private func withOpenReply<T>(_ messageId: String, _ body: (inout ReplyState) throws -> T) throws -> T {
        guard var reply = replies[messageId], !reply.isFinishing else {
            throw TypewireClientError(reason: .closed, message: "The reply \(messageId) has ended (finished, failed, timed out or closed).")
        }
        if let failure = reply.failure {
            endReply(messageId)
            throw failure
        }
        let result = try body(&reply)
        replies[messageId] = reply
        return result
    }

    private func sendReplyActivity(_ messageId: String) {
        guard var reply = replies[messageId] else { return }
        reply.lastActivity = .now
        replies[messageId] = reply
        setActivity(reply.machine.activity, in: reply.timeline)
    }

    private func flushReply(_ messageId: String) {
        guard var reply = replies[messageId], !reply.unsent.isEmpty else { return }
        transmit(
            .stream(
                .init(
                    conversation: reply.timeline.conversation, messageId: messageId, delta: reply.unsent, thread: reply.timeline.thread,
                    asker: reply.asker)))
        reply.unsent = ""
        reply.lastStreamed = .now
        replies[messageId] = reply
    }

    /// The next thing a reply's timer does: a coalesced part, an activity refresh, or the timeout.
    private func replyWake(_ messageId: String) -> ContinuousClock.Instant? {
        guard let reply = replies[messageId], !reply.isFinishing, reply.failure == nil else { return nil }
        let refresh = serverConfiguration.map { Duration.milliseconds($0.refreshInterval) } ?? .seconds(2)
        let flush = reply.unsent.isEmpty ? nil : reply.lastStreamed.map { $0 + configuration.streamInterval }
        return [reply.machine.nextDeadline, reply.lastActivity.map { $0 + refresh }, flush].compactMap { $0 }.min()
    }

    private func replyTick(_ messageId: String) {
        guard var reply = replies[messageId] else { return }
        let now = ContinuousClock.now
        if reply.machine.tick(now: now) {
            endReply(messageId)
            setActivity(.none, in: reply.timeline)  // given up: no indicator stays behind
            return
        }
        replies[messageId] = reply
        if let flush = reply.lastStreamed, now >= flush + configuration.streamInterval { flushReply(messageId) }
        let refresh = serverConfiguration.map { Duration.milliseconds($0.refreshInterval) } ?? .seconds(2)
        if let sent = reply.lastActivity, now >= sent + refresh { sendReplyActivity(messageId) }
    }

    private func armReplyTimer(_ messageId: String) {
        guard replies[messageId] != nil, replies[messageId]?.timer == nil else { return }
        replies[messageId]?.timer = Task { [weak self] in
            while let deadline = await self?.replyWake(messageId) {
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled else { return }
                await self?.replyTick(messageId)
            }
            await self?.replyTimerEnded(messageId)
        }
    }

    private func replyTimerEnded(_ messageId: String) {
        replies[messageId]?.timer = nil
    }
}
