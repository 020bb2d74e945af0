/// The words of a typing indicator: "Alice is typing…", "Alice, Bob, and 2 others are typing…".
///
/// Rules, in every ``TypingLocale``:
/// - No active members: no text (`nil`).
/// - 1: "Alice is typing…"; 2: "Alice and Bob are typing…"; 3: "Alice, Bob, and Charlie are typing…";
///   4 or more: "Alice, Bob, and 2 others are typing…". The ``Style/compact`` style names one member
///   beside two or more others: "Alice and 2 others are typing…".
/// - A name longer than ``Configuration/maxNameLength`` characters is cut to that length, its last
///   character an ellipsis: "Maximilianus Ar…".
/// - A missing or blank name shows as "Someone"; when no name is known at all and two or more are
///   active, the count is shown instead: "3 people are typing…".
/// - Other activities use their own verb: "Clawd is thinking…", "Alice is recording audio…".
/// - Mixed activities: members are grouped by activity, in the order their first member appears, and
///   each group gets its own sentence, joined by " · ": "Alice is typing… · Clawd is thinking…".
///   Members the server counted but did not list (`total` beyond the list) join the first group.
/// - ``accessibilityText(for:total:)`` says the same without the ellipsis and with names uncut, for
///   `aria-live` regions and VoiceOver.
/// - Arabic sets each name (and a tool's) between bidi isolates, U+2068 … U+2069, in both texts, so that a
///   Latin name keeps its place in the right-to-left sentence; screen readers do not speak them.
/// - On a message whose thread people write in, ``replyingText(count:)`` counts them: "2 people are
///   replying…" (the thread's own view shows its typers by name, as above).
public struct TypingText: Sendable {
    /// How many names a sentence shows.
    public enum Style: String, Sendable, Hashable, CaseIterable {
        /// Up to three names, then two names and a count: "Alice, Bob, and 2 others".
        case full
        /// Up to two names, then one name and a count: "Alice and 2 others".
        case compact
    }

    /// The options of the text.
    public struct Configuration: Sendable, Hashable {
        /// How many names a sentence shows. Default ``Style/full``.
        public var style: Style
        /// The longest name shown, in characters, the ellipsis included. Default 15.
        public var maxNameLength: Int
        /// The language. Default English.
        public var locale: TypingLocale

        /// Creates a configuration.
        public init(style: Style = .full, maxNameLength: Int = 15, locale: TypingLocale = .english) {
            self.style = style
            self.maxNameLength = max(2, maxNameLength)
            self.locale = locale
        }
    }

    /// The options in use.
    public let configuration: Configuration
    private var rules: TypingPhrases { configuration.locale.phrases }

    /// Creates a formatter.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// The visible text for these members, or nil when no one is active.
    /// - Parameters:
    ///   - typers: The active members in display order (as ``TypingRoster`` gives them).
    ///   - total: How many are active in all, if the server listed fewer than it counted.
    public func text(for typers: [Typer], total: Int? = nil) -> String? {
        compose(typers, total: total, accessible: false)
    }

    /// The text for assistive technology: no ellipsis, names not cut.
    public func accessibilityText(for typers: [Typer], total: Int? = nil) -> String? {
        compose(typers, total: total, accessible: true)
    }

    /// What a message shows while people write in its thread: "2 people are replying…"; nil for none.
    /// - Parameter count: How many are active in the thread (distinct users).
    public func replyingText(count: Int) -> String? {
        count > 0 ? rules.replying(count) + "…" : nil
    }

    /// The same for assistive technology: no ellipsis.
    public func accessibilityReplyingText(count: Int) -> String? {
        count > 0 ? rules.replying(count) : nil
    }

    /// "Seen by Alice and Bob" under a message: its readers' names in the order they read, listed as the
    /// typing text lists typers ("Seen by Alice, Bob, and 2 others"; a blank name is "Someone", cut to
    /// ``Configuration/maxNameLength``); nil for none.
    public func seenText(by names: [String?]) -> String? {
        names.isEmpty ? nil : rules.seenBy(subject(names, count: names.count, accessible: false))
    }

    /// The same for assistive technology: names not cut.
    public func accessibilitySeenText(by names: [String?]) -> String? {
        names.isEmpty ? nil : rules.seenBy(subject(names, count: names.count, accessible: true))
    }

    /// "Seen by 37": in a group too large to name its readers, how many have read a message; nil for none.
    public func seenText(count: Int) -> String? {
        count > 0 ? rules.seenCount(count) : nil
    }

    /// "online", "last seen 5 minutes ago", "last seen recently": a member's presence, as a conversation's
    /// header shows it under their name (``PresenceStatus``).
    public func presenceText(_ status: PresenceStatus) -> String {
        rules.presence(status)
    }

    /// "Sent", "Delivered", "Read": how far one of the user's messages has gone (``ReadState/Progress``), as
    /// its ticks' accessibility label says it.
    public func progressText(_ progress: ReadState.Progress) -> String {
        rules.progress(progress)
    }

    private func compose(_ typers: [Typer], total: Int?, accessible: Bool) -> String? {
        let active = typers.allSatisfy(\.activity.isActive) ? typers : typers.filter(\.activity.isActive)
        let unlisted = max(0, (total ?? active.count) - active.count)
        guard let first = active.first else {
            return unlisted > 0 ? finish(sentence(for: [], unlisted: unlisted, activity: .typing, accessible: accessible), accessible) : nil
        }
        if active.allSatisfy({ $0.activity == first.activity }) {
            return finish(sentence(for: active, unlisted: unlisted, activity: first.activity, accessible: accessible), accessible)
        }
        var groups: [(activity: MemberActivity, members: [Typer])] = []
        for typer in active {
            if let index = groups.firstIndex(where: { $0.activity == typer.activity }) {
                groups[index].members.append(typer)
            } else {
                groups.append((typer.activity, [typer]))
            }
        }
        let sentences = groups.enumerated().map { index, group in
            finish(
                sentence(for: group.members, unlisted: index == 0 ? unlisted : 0, activity: group.activity, accessible: accessible),
                accessible)
        }
        return sentences.joined(separator: accessible ? rules.sentenceSeparator : " · ")
    }

    private func finish(_ sentence: String, _ accessible: Bool) -> String {
        accessible ? sentence : sentence + "…"
    }

    private func sentence(for members: [Typer], unlisted: Int, activity: MemberActivity, accessible: Bool) -> String {
        let count = members.count + unlisted
        return rules.sentence(subject(members.map(\.name), count: count, accessible: accessible), count, activity)
    }

    /// "Alice", "Alice and Bob", "Alice, Bob, and 2 others", "3 people": `count` members, the first of
    /// whom have these names.
    private func subject(_ names: [String?], count: Int, accessible: Bool) -> String {
        if count >= 2, names.allSatisfy(Self.isBlank) { return rules.people(count) }
        // Only the names that appear are trimmed and cut: at most three, whatever the group's size.
        let named: Int
        switch configuration.style {
        case .full: named = count <= 3 ? count : 2
        case .compact: named = count <= 2 ? count : 1
        }
        let shown = names.prefix(named).map { displayName($0, accessible: accessible).map(rules.name) ?? rules.someone }
        switch (count, shown.count) {
        case (_, 0): return rules.someone
        case (1, _): return shown[0]
        case (2, 2): return rules.pair(shown[0], shown[1])
        case (3, 3): return rules.triple(shown[0], shown[1], shown[2])
        case (_, 1): return rules.oneAndOthers(shown[0], count - 1)
        default: return rules.twoAndOthers(shown[0], shown[1], count - 2)
        }
    }

    private static func isBlank(_ name: String?) -> Bool {
        name?.allSatisfy(\.isWhitespace) ?? true
    }

    /// The name as shown: trimmed, nil if blank, cut to the limit unless for assistive technology.
    private func displayName(_ name: String?, accessible: Bool) -> String? {
        guard let name, let start = name.firstIndex(where: { !$0.isWhitespace }) else { return nil }
        let end = name.lastIndex(where: { !$0.isWhitespace })!
        let trimmed = name[start...end]
        let limit = configuration.maxNameLength
        guard !accessible,
            let afterLimit = trimmed.index(trimmed.startIndex, offsetBy: limit, limitedBy: trimmed.endIndex),
            afterLimit < trimmed.endIndex
        else { return String(trimmed) }
        let kept = trimmed.prefix(limit - 1)
        return kept[...kept.lastIndex(where: { !$0.isWhitespace })!] + "…"
    }
}
