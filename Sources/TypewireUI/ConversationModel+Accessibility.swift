import TypewireClient

/// A sentence for VoiceOver to announce; each one new, even when its text repeats an earlier one.
public struct Announcement: Hashable, Sendable {
    /// What to say ("Alice is typing").
    public let text: String
    /// Tells this announcement from the earlier ones.
    public let number: Int
}

extension ConversationModel {
    /// Whether the indicator row shows someone, so its dots animate (with motion allowed): nothing ticks
    /// while nobody is active, nor while a streaming reply's cursor is the indicator.
    public var isIndicatorActive: Bool { indicatorText != nil }

    /// Publishes a sentence for VoiceOver, if any, and arms the timer for those who wait to be announced.
    func announce(_ text: String?) {
        if let text { announcement = Announcement(text: text, number: (announcement?.number ?? 0) + 1) }
        announcementTimer?.cancel()
        announcementTimer = announcer.nextDeadline.map { deadline in
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled, let self else { return }
                announce(announcer.tick(typing, now: .now))
            }
        }
    }
}
