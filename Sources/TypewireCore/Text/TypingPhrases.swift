/// The words of one language, as a table an app may change: start from a built-in language's
/// (``TypingLocale/phrases``), replace any phrase, and make a ``TypingLocale`` of it; or fill one for a
/// language Typewire does not have.
///
/// ```swift
/// var phrases = TypingLocale.german.phrases
/// phrases.sentence = { subject, count, activity in
///     activity == .typing ? "\(subject) \(count > 1 ? "tippen" : "tippt")" : TypingLocale.german.phrases.sentence(subject, count, activity)
/// }
/// let locale = TypingLocale(identifier: "de-x-app", phrases: phrases)
/// ```
///
/// Sentences come without the trailing ellipsis, which ``TypingText`` adds.
public struct TypingPhrases: Sendable {
    /// The name shown for a member without one ("Someone").
    public var someone: String
    /// A group where no name is known: "3 people".
    public var people: @Sendable (_ count: Int) -> String
    /// "A and B".
    public var pair: @Sendable (_ first: String, _ second: String) -> String
    /// "A, B, and C".
    public var triple: @Sendable (_ first: String, _ second: String, _ third: String) -> String
    /// "A, B, and N others".
    public var twoAndOthers: @Sendable (_ first: String, _ second: String, _ others: Int) -> String
    /// "A and N others".
    public var oneAndOthers: @Sendable (_ first: String, _ others: Int) -> String
    /// "<subject> is typing" / "<subject> are typing", for each activity; `count` is how many the subject
    /// speaks of (1 for "Alice", 2 for "Alice and Bob" or "2 people", …), for a verb that agrees with it
    /// (Arabic's has a dual: "يكتب", "يكتبان", "يكتبون").
    public var sentence: @Sendable (_ subject: String, _ count: Int, _ activity: MemberActivity) -> String
    /// What separates the sentences of mixed activities in the accessibility text (". ").
    public var sentenceSeparator: String
    /// "2 people are replying": how many are writing in a message's thread (1 or more).
    public var replying: @Sendable (_ count: Int) -> String
    /// "Seen by <subject>" under a message: who has read it ("Alice and Bob").
    public var seenBy: @Sendable (_ subject: String) -> String
    /// "Seen by 37": how many have read it, in a group too large to name them (1 or more).
    public var seenCount: @Sendable (_ count: Int) -> String
    /// "online", "last seen 5 minutes ago", "last seen recently": a member's presence in a header.
    public var presence: @Sendable (_ status: PresenceStatus) -> String
    /// "Sent", "Delivered", "Read": how far one of the user's messages has gone, said for its ticks.
    public var progress: @Sendable (_ progress: ReadState.Progress) -> String
    /// A member's name as it stands in a sentence, after any cut: as given, or in Arabic between bidi
    /// isolates (U+2068 … U+2069) so that a Latin name keeps its place in right-to-left text. Not applied
    /// to ``someone``. Default: as given.
    public var name: @Sendable (_ name: String) -> String

    /// A table of the app's own.
    public init(
        someone: String, people: @escaping @Sendable (Int) -> String, pair: @escaping @Sendable (String, String) -> String,
        triple: @escaping @Sendable (String, String, String) -> String, twoAndOthers: @escaping @Sendable (String, String, Int) -> String,
        oneAndOthers: @escaping @Sendable (String, Int) -> String, sentence: @escaping @Sendable (String, Int, MemberActivity) -> String,
        sentenceSeparator: String = ". ", replying: (@Sendable (Int) -> String)? = nil, name: (@Sendable (String) -> String)? = nil,
        seenBy: (@Sendable (String) -> String)? = nil, seenCount: (@Sendable (Int) -> String)? = nil,
        presence: (@Sendable (PresenceStatus) -> String)? = nil, progress: (@Sendable (ReadState.Progress) -> String)? = nil
    ) {
        self.someone = someone
        self.people = people
        self.pair = pair
        self.triple = triple
        self.twoAndOthers = twoAndOthers
        self.oneAndOthers = oneAndOthers
        self.sentence = sentence
        self.sentenceSeparator = sentenceSeparator
        self.replying = replying ?? { EnglishRules.replying($0) }  // a table from before threads: English
        self.name = name ?? { $0 }
        self.seenBy = seenBy ?? { EnglishRules.seen(by: $0) }  // a table from before read state: English
        self.seenCount = seenCount ?? { EnglishRules.seenCount($0) }
        self.presence = presence ?? { EnglishRules.presence($0) }  // a table from before last seen: English
        self.progress = progress ?? { EnglishRules.progressWords($0) }  // a table from before ticks: English
    }

    /// A built-in language's table.
    init(_ rules: any LanguageRules.Type) {
        self.init(
            someone: rules.someone, people: { rules.people($0) }, pair: { rules.pair($0, $1) }, triple: { rules.triple($0, $1, $2) },
            twoAndOthers: { rules.twoAndOthers($0, $1, others: $2) }, oneAndOthers: { rules.oneAndOthers($0, others: $1) },
            sentence: { rules.sentence(subject: $0, count: $1, activity: $2) }, sentenceSeparator: rules.sentenceSeparator,
            replying: { rules.replying($0) }, name: { rules.name($0) }, seenBy: { rules.seen(by: $0) },
            seenCount: { rules.seenCount($0) }, presence: { rules.presence($0) }, progress: { rules.progressWords($0) })
    }
}
