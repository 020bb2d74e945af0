import Foundation
import TypewireCore

// A thread's recent replies, for its handles: `subscribed` brings only the main timeline's messages.
extension TypewireClient {
    /// Fetches a thread's recent replies over the server's REST route (with the socket's token) and hands
    /// them to the thread's handles, each once. Called after a `subscribed` of the conversation while a
    /// handle of the thread has not had them since it opened or since the connection dropped, so replies
    /// sent while the client was offline arrive too. A failure other than the server not knowing the
    /// conversation is retried with the configured backoff.
    func loadReplies(in timeline: Timeline) {
        guard let thread = timeline.thread, storesMessages, let token = socketToken else { return }
        // The views open now: those opened later may have missed replies this page was read before.
        let views = Set(conversations[timeline.conversation]?.views.values.filter { $0.thread == thread }.map(\.number) ?? [])
        let socket = socketNumber
        repliesFetches += 1
        guard
            let request = ThreadRepliesRequest(
                socketURL: url, restURL: configuration.restURL, conversation: timeline.conversation, thread: thread, token: token)
        else {
            return logger.warning(
                "no REST route for a thread's replies: set Configuration.restURL to the server's http(s) /v1 URL",
                metadata: ["url": "\(configuration.restURL ?? url)"])
        }
        Task { [weak self] in
            do {
                let (status, data) = try await HTTPGet.fetch(request.url, headers: request.headers, maxBytes: ThreadRepliesRequest.maxBytes)
                guard status == 200 else {
                    await self?.repliesRefused(timeline, status: status)
                    return
                }
                let page = try JSONDecoder().decode(ThreadRepliesRequest.Page.self, from: data)
                await self?.deliverReplies(page.messages, in: timeline, to: views, askedOn: socket)
            } catch {
                await self?.repliesRefused(timeline, status: nil, error: error)
            }
        }
    }

    /// Hands a page of replies to the thread's views (each yields a message once); the views open when it
    /// was asked for have had them, unless the connection dropped since (what was sent meanwhile is
    /// fetched after the next `subscribed`).
    private func deliverReplies(_ messages: [ChatMessage], in timeline: Timeline, to views: Set<Int>, askedOn socket: Int) {
        retrySettled(.replies(timeline))
        guard conversations[timeline.conversation] != nil else { return }
        for message in messages where message.conversation == timeline.conversation && message.thread == timeline.thread {
            conversations[timeline.conversation]!.deliver(message, reader: nil)  // fetched: not news
        }
        guard socket == socketNumber, welcomed else { return }
        for number in views where conversations[timeline.conversation]!.views[number] != nil {
            conversations[timeline.conversation]!.views[number]!.isWaitingForReplies = false
        }
    }

    /// A fetch that failed: tried again later, unless the server does not know the conversation for the
    /// user (the socket's `subscribe` says so and ends the handles).
    private func repliesRefused(_ timeline: Timeline, status: Int?, error: (any Error)? = nil) {
        logger.debug(
            "a thread's replies could not be fetched",
            metadata: [
                "conversation": "\(timeline.conversation)", "status": "\(status.map(String.init) ?? "none")",
                "error": "\(error.map { "\($0)" } ?? "")",
            ])
        guard status != 404, status != 400, conversations[timeline.conversation]?.isOpen(thread: timeline.thread) == true else {
            return retrySettled(.replies(timeline))
        }
        retryLater(.replies(timeline))
    }
}
