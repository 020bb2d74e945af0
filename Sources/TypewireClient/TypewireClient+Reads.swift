import TypewireCore

extension TypewireClient {
    /// The user has seen a timeline up to a message, or marks it unread from one: reported through the
    /// timeline's ``ReadReporter`` (at most one `read` or `markUnread` a second, none lost across a
    /// reconnect). Nothing on a typing-only server (it keeps no marks) or for a conversation no handle has
    /// open.
    func markRead(_ report: ReadReporter<ContinuousClock.Instant>.Report, in timeline: Timeline) {
        guard storesMessages, conversations[timeline.conversation]?.isOpen(thread: timeline.thread) == true else { return }
        var reporter = readReporters[timeline] ?? ReadReporter()
        if readReporters[timeline] == nil, !welcomed { _ = reporter.handle(.connectionLost, now: .now) }
        let due = reporter.handle(.read(report), now: .now)
        readReporters[timeline] = reporter
        sendRead(due, in: timeline)
    }

    /// Tells every reporter that the socket was welcomed or lost; sends what waited for it.
    func readConnectionChanged(isConnected: Bool) {
        for timeline in readReporters.keys {
            let due = readReporters[timeline]!.handle(isConnected ? .connectionRestored : .connectionLost, now: .now)
            sendRead(due, in: timeline)
        }
    }

    /// The last view of a timeline is closing: what waits goes now (it was seen before the screen closed),
    /// and the reporter ends.
    func endReads(in timeline: Timeline) {
        guard var reporter = readReporters.removeValue(forKey: timeline) else { return }
        readTimers.removeValue(forKey: timeline)?.cancel()
        if let due = reporter.flush(now: .now) { transmit(Self.frame(due, in: timeline)) }
    }

    /// Sends a due report, then sleeps until the reporter's next deadline.
    private func sendRead(_ due: ReadReporter<ContinuousClock.Instant>.Report?, in timeline: Timeline) {
        if let due { transmit(Self.frame(due, in: timeline)) }
        readTimers.removeValue(forKey: timeline)?.cancel()
        guard let deadline = readReporters[timeline]?.nextDeadline else { return }
        readTimers[timeline] = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.readDeadlinePassed(in: timeline)
        }
    }

    private func readDeadlinePassed(in timeline: Timeline) {
        guard readReporters[timeline] != nil else { return }
        sendRead(readReporters[timeline]!.tick(now: .now), in: timeline)
    }

    private static func frame(_ report: ReadReporter<ContinuousClock.Instant>.Report, in timeline: Timeline) -> ClientFrame {
        report.marksUnread
            ? .markUnread(.init(conversation: timeline.conversation, messageId: report.messageId))
            : .read(.init(conversation: timeline.conversation, messageId: report.messageId, isPrivate: report.isPrivate ? true : nil))
    }
}
