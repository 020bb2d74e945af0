import TypewireCore

// Messages: sends and edits (bots' streamed replies: HubShard+Replies).
extension HubShard {
    func send(_ send: ClientFrame.Send, from id: ConnectionID) async {
        guard let identity = connections[id]?.identity else { return }
        guard send.text.count <= configuration.messages.maxLength else {
            return reply(
                to: id,
                .init(
                    code: .tooLarge, message: "The message has more than \(configuration.messages.maxLength) characters.",
                    ref: send.clientMessageId, request: .send
                ))
        }
        guard !send.clientMessageId.isEmpty else {
            return reply(
                to: id,
                .init(code: .invalidField, message: "The 'send' frame needs a non-empty \"clientMessageId\".", ref: "send", request: .send))
        }
        guard await ensureParticipant(identity.userID, of: send.conversation, from: id, ref: send.clientMessageId, request: .send) else {
            return
        }
        if let thread = send.thread,
            let refusal = await refusal(ofThread: thread, in: send.conversation, ref: send.clientMessageId, request: .send)
        {
            return reply(to: id, refusal)
        }
        // The stop goes out before the message, so no one sees "is typing" after it arrives (in the thread or
        // the main timeline the message goes to: typing elsewhere in the conversation goes on).
        if board.clear(user: identity.userID, in: send.conversation, thread: send.thread) { publishActivity(of: send.conversation) }
        let stored: StoredMessage
        do {
            // nil: the conversation was deleted, or the sender removed, since they were let in.
            guard
                let message = try await store.storeMessage(
                    conversation: send.conversation, sender: identity, clientMessageId: send.clientMessageId, text: send.text,
                    sentAt: now(), thread: send.thread,
                    webhooks: webhooks?.messageWebhooks(offline: offlineMembers(of: send.conversation, besides: identity.userID))
                )
            else { return reply(to: id, Self.unknownConversation(send.conversation, ref: send.clientMessageId, request: .send)) }
            stored = message
        } catch {
            logger.storeFailed("storing a message failed", error: error)
            return reply(
                to: id,
                .init(
                    code: .unavailable,
                    message:
                        "The message was not stored: the server cannot write to its storage now. It was not sent to anyone; try again later.",
                    ref: send.clientMessageId, request: .send))
        }
        if stored.isNew {
            deliverMessage(stored.message)
            webhooks?.messageStored()
        }
        if let replyID = ReplyID.replyMessageId(of: send.clientMessageId) {
            // A reply whose stream was cut off ends as a whole message: its partial text is not needed.
            let key = StreamKey(conversation: send.conversation, messageId: replyID, bot: identity.userID)
            streams.withLockedValue { $0.finish(key, as: .finished) }
        }
        guard let sink = connections[id]?.sink else { return }
        deliver(Self.encode(.ack(.init(clientMessageId: send.clientMessageId, messageId: stored.message.id))), as: "ack", to: sink)
    }

    func edit(_ edit: ClientFrame.Edit, from id: ConnectionID) async {
        guard let identity = connections[id]?.identity else { return }
        guard edit.text.count <= configuration.messages.maxLength else {
            return reply(
                to: id,
                .init(
                    code: .tooLarge, message: "The message has more than \(configuration.messages.maxLength) characters.",
                    ref: edit.messageId, request: .edit))
        }
        guard await ensureParticipant(identity.userID, of: edit.conversation, from: id, ref: edit.messageId, request: .edit) else { return }
        let edited: ChatMessage?
        do {
            edited = try await store.editMessage(
                edit.messageId, in: edit.conversation, by: identity.userID, text: edit.text, editedAt: now())
        } catch {
            logger.storeFailed("editing a message failed", error: error)
            return reply(
                to: id,
                .init(
                    code: .unavailable, message: "The message was not edited: the server cannot write to its storage now; try again later.",
                    ref: edit.messageId, request: .edit))
        }
        guard let edited else {
            return reply(
                to: id,
                .init(
                    code: .forbidden, message: "You can edit only your own messages in this conversation.", ref: edit.messageId,
                    request: .edit))
        }
        deliverMessage(edited)
        webhooks?.record(.messageEdited(edited))
    }

    /// The conversation's members, but `user`, with no socket open on any node, sorted: whom a push
    /// notification of a new message is for (the members are cached: a send checked them).
    private func offlineMembers(of conversation: String, besides user: String) -> [String] {
        guard webhooks?.wants(.messageCreated) == true, let members = members[conversation] else { return [] }
        return members.filter { $0 != user && (!users.isOnline($0) || users.isHeld($0)) }.sorted()
    }

    /// Sends a new or edited message to the conversation's subscribers, here and on the other nodes.
    private func deliverMessage(_ message: ChatMessage) {
        history.invalidate(message.conversation)
        broadcast(Self.encode(.message(message)), as: "message", to: message.conversation, message: message)
        cluster?.publish(.message(message))  // by reference if too large for the bus (`ClusterPayload`)
    }
}
