/// The language of ``TypingText``: words, plurals and list conjunctions.
///
/// Choose one by value (``english``, ``german``, ``french``, ``spanish``, ``japanese``, ``arabic``,
/// ``portuguese``, ``italian``, ``simplifiedChinese``, ``korean``), from a locale identifier such as `"de-CH"`,
/// `"ja_JP"` or `"zh-Hans-CN"` with ``init(identifier:)``, from the user's languages with ``preferred(from:)``,
/// or make one of the app's own words with ``init(identifier:phrases:)``.
///
/// Arabic text is right-to-left: its names (and a tool's name) stand between bidi isolates, U+2068 … U+2069,
/// so that a Latin name keeps its place in the sentence (``TypingPhrases/name``).
public struct TypingLocale: Hashable, Sendable, CustomStringConvertible {
    enum Language: String, Hashable, Sendable, CaseIterable {
        case en, de, fr, es, ja, ar, pt, it
        case zhHans = "zh-Hans"
        case ko
    }

    /// The built-in language, or nil for an app's own table.
    let language: Language?
    /// The language code (`"en"`, `"de"`, …; `"zh-Hans"` for Simplified Chinese), or the identifier an app
    /// gave its own table.
    public let identifier: String
    /// The words: a built-in language's, or the app's (``TypingPhrases``).
    public let phrases: TypingPhrases

    /// English: "Alice, Bob, and 2 others are typing…".
    public static let english = TypingLocale(language: .en)
    /// German: "Alice, Bob und 2 weitere Personen schreiben…".
    public static let german = TypingLocale(language: .de)
    /// French: "Alice, Bob et 2 autres sont en train d'écrire…".
    public static let french = TypingLocale(language: .fr)
    /// Spanish: "Alice, Bob y 2 personas más están escribiendo…".
    public static let spanish = TypingLocale(language: .es)
    /// Japanese: "Alice、Bobと他2人が入力中…".
    public static let japanese = TypingLocale(language: .ja)
    /// Arabic, right-to-left, its names between bidi isolates: "Alice، Bob وشخصان آخران يكتبون…".
    public static let arabic = TypingLocale(language: .ar)
    /// Portuguese, in Brazil's words: "Alice, Bob e mais 2 pessoas estão digitando…".
    public static let portuguese = TypingLocale(language: .pt)
    /// Italian: "Alice, Bob e altre 2 persone stanno scrivendo…".
    public static let italian = TypingLocale(language: .it)
    /// Simplified Chinese (`"zh-Hans"`): "Alice、Bob等4人正在输入…".
    public static let simplifiedChinese = TypingLocale(language: .zhHans)
    /// Korean: "Alice, Bob 외 2명 입력 중…".
    public static let korean = TypingLocale(language: .ko)

    /// Every built-in locale.
    public static let all: [TypingLocale] = Language.allCases.map(TypingLocale.init(language:))

    /// The built-in locale for an identifier's language code (`"fr"`, `"fr-CA"`, `"fr_FR"`), or nil if
    /// there is none. Chinese is Simplified Chinese when the identifier says so or says nothing of the script
    /// (`"zh"`, `"zh-Hans"`, `"zh-CN"`, `"zh-SG"`, `"zh-Hans-CN"`); Traditional Chinese is not built in
    /// (`"zh-Hant"`, `"zh-TW"`, `"zh-HK"`, `"zh-MO"`: nil), so ``preferred(from:)`` goes on to the next.
    public init?(identifier: String) {
        let code = identifier.prefix { $0.isLetter }.lowercased()
        if code == "zh" {
            // The script if given (4 letters), else the region: Taiwan, Hong Kong and Macau write Traditional.
            let subtags = identifier.split(whereSeparator: { $0 == "-" || $0 == "_" }).dropFirst().map { $0.lowercased() }
            let script = subtags.first { $0.count == 4 }
            if let script, script != "hans" { return nil }
            if script == nil, subtags.contains(where: { ["tw", "hk", "mo"].contains($0) }) { return nil }
            self.init(language: .zhHans)
            return
        }
        guard let language = Language(rawValue: code) else { return nil }
        self.init(language: language)
    }

    /// A locale of the app's own words: another language, or a built-in one with phrases replaced. Give
    /// it an identifier of its own (`"de-x-app"`, `"nl"`): locales are equal when their identifiers are.
    public init(identifier: String, phrases: TypingPhrases) {
        language = nil
        self.identifier = identifier
        self.phrases = phrases
    }

    /// The first built-in locale among the user's preferred languages (as `Locale.preferredLanguages`
    /// lists them, most preferred first), English if none is.
    public static func preferred(from identifiers: [String]) -> TypingLocale {
        identifiers.lazy.compactMap(TypingLocale.init(identifier:)).first ?? .english
    }

    init(language: Language) {
        self.language = language
        identifier = language.rawValue
        phrases = TypingPhrases(language.rules)
    }

    public var description: String { identifier }

    public static func == (lhs: TypingLocale, rhs: TypingLocale) -> Bool {
        lhs.identifier == rhs.identifier && (lhs.language == nil) == (rhs.language == nil)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(language == nil)
    }
}

extension TypingLocale.Language {
    var rules: any LanguageRules.Type {
        switch self {
        case .en: EnglishRules.self
        case .de: GermanRules.self
        case .fr: FrenchRules.self
        case .es: SpanishRules.self
        case .ja: JapaneseRules.self
        case .ar: ArabicRules.self
        case .pt: PortugueseRules.self
        case .it: ItalianRules.self
        case .zhHans: SimplifiedChineseRules.self
        case .ko: KoreanRules.self
        }
    }
}

/// The words of one language. Sentences come without the trailing ellipsis, which ``TypingText`` adds.
protocol LanguageRules: Sendable {
    /// The name shown for a member without one.
    static var someone: String { get }
    /// "3 people", for a group where no name is known.
    static func people(_ count: Int) -> String
    /// "A and B".
    static func pair(_ first: String, _ second: String) -> String
    /// "A, B, and C".
    static func triple(_ first: String, _ second: String, _ third: String) -> String
    /// "A, B, and N others".
    static func twoAndOthers(_ first: String, _ second: String, others: Int) -> String
    /// "A and N others".
    static func oneAndOthers(_ first: String, others: Int) -> String
    /// "<subject> is typing" / "<subject> are typing"; `count` is how many the subject speaks of.
    static func sentence(subject: String, count: Int, activity: MemberActivity) -> String
    /// What separates the sentences of mixed activities in the accessibility text.
    static var sentenceSeparator: String { get }
    /// "2 people are replying": how many are writing in a message's thread, shown on the message.
    static func replying(_ count: Int) -> String
    /// A member's (or a tool's) name as it stands in a sentence: as given, or Arabic's between bidi isolates.
    static func name(_ name: String) -> String
    /// "Seen by <subject>": who has read a message.
    static func seen(by subject: String) -> String
    /// "Seen by 37": how many have, in a group too large to name them.
    static func seenCount(_ count: Int) -> String
    /// "online", "last seen 5 minutes ago": a member's presence in a header.
    static var presenceWords: PresenceWords { get }
    /// "Sent", "Delivered", "Read": a message's ticks, said.
    static var progressWords: ProgressWords { get }
}

extension LanguageRules {
    static var sentenceSeparator: String { ". " }
    static func name(_ name: String) -> String { name }
    static func seenCount(_ count: Int) -> String { seen(by: "\(count)") }
}
