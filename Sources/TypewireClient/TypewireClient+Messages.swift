import Foundation
import TypewireCore

extension TypewireClient {
    /// Sends a message now (in its lane's order); the continuation gets the server's id once stored.
    /// Retried across reconnects until acknowledged. A typing-only server takes no messages: the typing
    /// stops and the send fails at once.
    func submit(_ text: String, in timeline: Timeline, continuation: CheckedContinuation<String, any Error>) {
        guard storesMessages else {
            if activeIn.contains(timeline) { setActivity(.none, in: timeline) }
            return continuation.resume(throwing: TypewireClientError.messagesDisabled)
        }
        let clientMessageId = UUID().uuidString.lowercased()
        activeIn.remove(timeline)  // the server clears the sender's activity (in that timeline) when it stores the message
        queueSend(clientMessageId, in: timeline, text: text, continuation: continuation)
        resendMessage(clientMessageId)
    }

    /// Edits one of the user's messages; returns the edited message once the server fanned it out.
    /// Retried across reconnects until done.
    func edit(_ messageId: String, in conversation: String, text: String) async throws -> ChatMessage {
        if serverConfiguration?.storesMessages == false { throw TypewireClientError.messagesDisabled }
        guard conversations[conversation] != nil else { throw TypewireClientError.closed(conversation) }
        return try await withCheckedThrowingContinuation { continuation in
            pendingEdits[messageId, default: PendingEdit(conversation: conversation, text: text, waiters: [])].waiters.append(continuation)
            pendingEdits[messageId]!.text = text
            resendEdit(messageId)
        }
    }

    /// Sends a pending message now, unless the server's limits (from its `welcome`) refuse it: then it
    /// fails with ``/TypewireCore/ErrorCode/tooLarge`` without a frame (past four times the frame limit, a frame would
    /// cost the socket, and be sent again after every reconnect).
    func resendMessage(_ clientMessageId: String) {
        guard let send = pendingSends[clientMessageId] else { return }
        let frame = ClientFrame.send(
            .init(conversation: send.timeline.conversation, clientMessageId: clientMessageId, text: send.text, thread: send.timeline.thread)
        )
        if let error = refusal(of: frame, text: send.text) {
            retrySettled(.message(clientMessageId))
            return settleSend(clientMessageId)?.continuation?.resume(throwing: error) ?? ()
        }
        transmit(frame)
    }

    func resendEdit(_ messageId: String) {
        guard let edit = pendingEdits[messageId] else { return }
        let frame = ClientFrame.edit(.init(conversation: edit.conversation, messageId: messageId, text: edit.text))
        if let error = refusal(of: frame, text: edit.text) {
            retrySettled(.edit(messageId))
            return pendingEdits.removeValue(forKey: messageId)?.fail(error) ?? ()
        }
        transmit(frame)
    }

    /// The `too_large` the server would answer, as its `welcome` states its limits; nil if the text fits
    /// or the server has not said (before the first welcome, or an older server).
    private func refusal(of frame: ClientFrame, text: String) -> TypewireClientError? {
        guard let limits = serverConfiguration else { return nil }
        if let maxLength = limits.maxMessageLength, text.count > maxLength {
            return TypewireClientError(reason: .server(.tooLarge), message: "The message has more than \(maxLength) characters.")
        }
        // JSON escapes a byte into 6 at most: most texts fit without encoding the frame a second time.
        if let maxFrameSize = limits.maxFrameSize, text.utf8.count * 6 + 1_024 > maxFrameSize,
            case let bytes = Self.encode(frame).utf8.count, bytes > maxFrameSize
        {
            return TypewireClientError(
                reason: .server(.tooLarge), message: "The message takes \(bytes) bytes to send; the server reads at most \(maxFrameSize).")
        }
        return nil
    }

    /// A `message` frame completes the edits waiting for it.
    func completeEdit(_ message: ChatMessage) {
        guard message.editedAt != nil, pendingEdits[message.id]?.text == message.text else { return }
        retrySettled(.edit(message.id))
        pendingEdits.removeValue(forKey: message.id)?.complete(with: message)
    }

    /// Answers an `error` frame by the request it names (`request`, with `ref` its id): a send, an edit,
    /// a bot reply's part, or a subscription. A rate limit or a passing failure is retried with backoff; a
    /// conversation the user is no longer in ends its handles; anything else fails the request with the
    /// server's reason. From a server that does not say `request`, the kind is found from the `ref`.
    func handle(_ failure: ServerFrame.Failure) {
        guard let ref = failure.ref, let request = failure.request ?? requestKind(of: ref) else { return }
        let error = TypewireClientError(reason: .server(failure.code), message: failure.message)
        let retry = failure.code == .rateLimited || failure.code == .unavailable
        switch request {
        case "send":
            guard let pending = pendingSends[ref] else { return }
            if retry { return retryLater(.message(ref)) }
            retrySettled(.message(ref))
            _ = settleSend(ref)
            pending.continuation?.resume(throwing: error)
        case "edit":
            guard let pending = pendingEdits[ref] else { return }
            if retry { return retryLater(.edit(ref)) }
            retrySettled(.edit(ref))
            pendingEdits.removeValue(forKey: ref)
            pending.fail(error)
        case "stream":
            replyRefused(ref, error: error, retry: retry)
        case "subscribe":
            _ = subscribeAnswered(ref, holding: [])
            guard conversations[ref] != nil else { return }
            if failure.code == .unknownConversation { return conversationUnknown(ref, error: error) }
            if retry { retryLater(.subscription(ref)) }
        case "refresh":
            refreshRefused(failure)
        case "hello":
            helloRefused(failure)
        default:
            break  // an activity or a hello: nothing waits for it
        }
    }

    /// The request an error's `ref` names, for a server that does not say (looked up in the order in
    /// which the kinds' ids are least likely to collide).
    private func requestKind(of ref: String) -> String? {
        if pendingSends[ref] != nil { return "send" }
        if pendingEdits[ref] != nil { return "edit" }
        if replies[ref] != nil { return "stream" }
        if conversations[ref] != nil { return "subscribe" }
        return nil
    }

    /// Sends a refused request again after the configured backoff (after a rate limit or a passing
    /// failure): the wait grows with each refusal of the same request in a row, with jitter, so that
    /// clients refused together do not come back together.
    func retryLater(_ request: RetriedRequest) {
        let attempt = (retryAttempts[request] ?? 0) + 1
        retryAttempts[request] = attempt
        var random = SystemRandomNumberGenerator()
        let wait = configuration.backoff.delay(attempt: attempt, using: &random)
        Task { [weak self] in
            try? await Task.sleep(for: wait)
            await self?.retry(request)
        }
    }

    /// A request was done or given up: its next refusal starts the backoff again.
    func retrySettled(_ request: RetriedRequest) {
        retryAttempts[request] = nil
    }

    private func retry(_ request: RetriedRequest) {
        switch request {
        case .message(let clientMessageId): resendMessage(clientMessageId)
        case .edit(let messageId): resendEdit(messageId)
        case .subscription(let conversation):
            guard conversations[conversation]?.isSubscribed == false else { return }
            subscribe(to: conversation)
        case .replies(let timeline):
            guard conversations[timeline.conversation]?.isOpen(thread: timeline.thread) == true else { return retrySettled(request) }
            loadReplies(in: timeline)
        }
    }
}

/// A request the server refused for now, to be sent again.
enum RetriedRequest: Hashable, Sendable {
    case message(String)
    case edit(String)
    case subscription(String)
    /// A thread's recent replies, fetched over REST.
    case replies(Timeline)
}
