import Foundation
import TypewireCore

extension TypewireClient {
    /// Sends a message now (in its lane's order); the continuation gets the server's id once stored.
    /// Retried across reconnects until acknowledged. A typing-only server takes no messages: the typing
    /// stops and the send fails at once.
    func submit(_ text: String, in conversation: String, continuation: CheckedContinuation<String, any Error>) {
        guard storesMessages else {
            if activeIn.contains(conversation) { setActivity(.none, in: conversation) }
            return continuation.resume(throwing: TypewireClientError.messagesDisabled)
        }
        let clientMessageId = UUID().uuidString.lowercased()
        activeIn.remove(conversation)  // the server clears the sender's activity when it stores the message
        pendingSends[clientMessageId] = PendingSend(conversation: conversation, text: text, continuation: continuation)
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

    func resendMessage(_ clientMessageId: String) {
        guard let send = pendingSends[clientMessageId] else { return }
        transmit(.send(.init(conversation: send.conversation, clientMessageId: clientMessageId, text: send.text)))
    }

    func resendEdit(_ messageId: String) {
        guard let edit = pendingEdits[messageId] else { return }
        transmit(.edit(.init(conversation: edit.conversation, messageId: messageId, text: edit.text)))
    }

    /// A `message` frame completes the edits waiting for it.
    func completeEdit(_ message: ChatMessage) {
        guard message.editedAt != nil, pendingEdits[message.id]?.text == message.text else { return }
        retrySettled(.edit(message.id))
        pendingEdits.removeValue(forKey: message.id)?.complete(with: message)
    }

    /// Answers an `error` frame by what its `ref` names: a pending send, edit or bot reply, or an open
    /// conversation. A rate limit is retried a second later; a conversation the user is no longer in
    /// ends its handle; anything else fails the request with the server's reason.
    func handle(_ failure: ServerFrame.Failure) {
        guard let ref = failure.ref else { return }
        let error = TypewireClientError(reason: .server(failure.code), message: failure.message)
        let retry = failure.code == .rateLimited || failure.code == .unavailable
        if pendingSends[ref] != nil {
            if retry { return retryLater(.message(ref)) }
            retrySettled(.message(ref))
            pendingSends.removeValue(forKey: ref)?.continuation.resume(throwing: error)
        } else if pendingEdits[ref] != nil {
            if retry { return retryLater(.edit(ref)) }
            retrySettled(.edit(ref))
            pendingEdits.removeValue(forKey: ref)?.fail(error)
        } else if replies[ref] != nil {
            replyRefused(ref, error: error, retry: retry)
        } else if conversations[ref] != nil {
            if failure.code == .unknownConversation { return conversationEnded(ref) }
            if retry { retryLater(.subscription(ref)) }
        }
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
            transmit(.subscribe(.init(conversation: conversation)))
        }
    }
}

/// A request the server refused for now, to be sent again.
enum RetriedRequest: Hashable, Sendable {
    case message(String)
    case edit(String)
    case subscription(String)
}
