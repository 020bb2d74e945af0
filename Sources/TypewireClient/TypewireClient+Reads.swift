import TypewireCore

/// What one ``/TypewireCore/ReadReporter`` of the client reports: a timeline's reads (and "mark unread"), or the messages a
/// device received there (`delivered`).
struct MarkReport: Hashable, Sendable {
    var timeline: Timeline
    var isDelivery: Bool
}

extension TypewireClient {
    /// The user has seen a timeline up to a message, or marks it unread from one: reported through the
    /// timeline's ``/TypewireCore/ReadReporter`` (at most one `read` or `markUnread` a second, none lost across a
    /// reconnect). On a typing-only server only a read of the app's own message with its time (`sentAt`):
    /// such a server keeps marks over the app's ids but cannot tell which message is before another. Nothing
    /// for a conversation no handle has open.
    func markRead(_ report: ReadReporter<ContinuousClock.Instant>.Report, in timeline: Timeline) {
        guard storesMessages || (report.sentAt != nil && !report.marksUnread),
            conversations[timeline.conversation]?.isOpen(thread: timeline.thread) == true
        else { return }
        self.report(report, as: MarkReport(timeline: timeline, isDelivery: false))
    }

    /// On a typing-only server: a message of the app's own, of another member, reached the device (the app's
    /// listener got it), reported as ``received(_:)`` reports the server's messages. Nothing on a server that
    /// keeps messages (the client reports those itself), nor in a group too large to name its readers.
    func receivedAppMessage(_ messageId: String, sentAt: Int64, in timeline: Timeline) {
        guard !storesMessages, conversations[timeline.conversation]?.countsReaders == false else { return }
        report(.init(messageId: messageId, sentAt: sentAt), as: MarkReport(timeline: timeline, isDelivery: true))
    }

    /// A message of another member reached the socket (new, not an edit): the device received its timeline up
    /// to it, reported through the timeline's delivery reporter (at most one `delivered` a second; the
    /// server keeps the newest). Nothing on a typing-only server, nor in a group too large to name its
    /// readers (no one is told of deliveries there).
    func received(_ message: ChatMessage) {
        guard storesMessages, message.editedAt == nil, let user = userID, message.sender != user,
            conversations[message.conversation]?.countsReaders == false
        else { return }
        report(
            .init(messageId: message.id), as: MarkReport(timeline: Timeline(message.conversation, thread: message.thread), isDelivery: true)
        )
    }

    private func report(_ report: ReadReporter<ContinuousClock.Instant>.Report, as key: MarkReport) {
        var reporter = readReporters[key] ?? ReadReporter()
        if readReporters[key] == nil, !welcomed { _ = reporter.handle(.connectionLost, now: .now) }
        let due = reporter.handle(.read(report), now: .now)
        readReporters[key] = reporter
        send(due, as: key)
    }

    /// Tells every reporter that the socket was welcomed or lost; sends what waited for it.
    func readConnectionChanged(isConnected: Bool) {
        for key in readReporters.keys {
            let due = readReporters[key]!.handle(isConnected ? .connectionRestored : .connectionLost, now: .now)
            send(due, as: key)
        }
    }

    /// The last view of a timeline is closing: what waits goes now (it was seen, or received, before the screen
    /// closed), and the timeline's reporters end.
    func endReads(in timeline: Timeline) {
        for key in [MarkReport(timeline: timeline, isDelivery: false), MarkReport(timeline: timeline, isDelivery: true)] {
            guard var reporter = readReporters.removeValue(forKey: key) else { continue }
            readTimers.removeValue(forKey: key)?.cancel()
            if let due = reporter.flush(now: .now) { transmit(Self.frame(due, as: key)) }
        }
    }

    /// Sends a due report, then sleeps until the reporter's next deadline.
    private func send(_ due: ReadReporter<ContinuousClock.Instant>.Report?, as key: MarkReport) {
        if let due { transmit(Self.frame(due, as: key)) }
        readTimers.removeValue(forKey: key)?.cancel()
        guard let deadline = readReporters[key]?.nextDeadline else { return }
        readTimers[key] = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.readDeadlinePassed(as: key)
        }
    }

    private func readDeadlinePassed(as key: MarkReport) {
        guard readReporters[key] != nil else { return }
        send(readReporters[key]!.tick(now: .now), as: key)
    }

    private static func frame(_ report: ReadReporter<ContinuousClock.Instant>.Report, as key: MarkReport) -> ClientFrame {
        let (conversation, messageId) = (key.timeline.conversation, report.messageId)
        // The app's own message (a typing-only server): its time and thread go with it.
        let thread = report.sentAt == nil ? nil : key.timeline.thread
        if key.isDelivery {
            return .delivered(.init(conversation: conversation, messageId: messageId, sentAt: report.sentAt, thread: thread))
        }
        return report.marksUnread
            ? .markUnread(.init(conversation: conversation, messageId: messageId))
            : .read(
                .init(
                    conversation: conversation, messageId: messageId, isPrivate: report.isPrivate ? true : nil, sentAt: report.sentAt,
                    thread: thread))
    }
}
