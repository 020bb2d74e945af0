/// The language of ``TypingText``: words, plurals and list conjunctions.
///
/// Choose one by value (``english``, ``german``, ``french``, ``spanish``, ``japanese``) or from a locale
/// identifier such as `"de-CH"` or `"ja_JP"` with ``init(identifier:)``.
public struct TypingLocale: Hashable, Sendable, CustomStringConvertible {
    enum Language: String, Hashable, Sendable, CaseIterable {
        case en, de, fr, es, ja
    }

    let language: Language

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

    /// Every supported locale.
    public static let all: [TypingLocale] = Language.allCases.map(TypingLocale.init(language:))

    /// The locale for an identifier's language code (`"fr"`, `"fr-CA"`, `"fr_FR"`), or nil if unsupported.
    public init?(identifier: String) {
        let code = identifier.prefix { $0.isLetter }.lowercased()
        guard let language = Language(rawValue: code) else { return nil }
        self.language = language
    }

    init(language: Language) {
        self.language = language
    }

    /// The language code (`"en"`, `"de"`, …).
    public var identifier: String { language.rawValue }
    public var description: String { identifier }

    var rules: any LanguageRules.Type {
        switch language {
        case .en: EnglishRules.self
        case .de: GermanRules.self
        case .fr: FrenchRules.self
        case .es: SpanishRules.self
        case .ja: JapaneseRules.self
        }
    }
}

/// The words of one language. Sentences come without the trailing ellipsis, which ``TypingText`` adds.
protocol LanguageRules {
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
    /// "<subject> is typing" / "<subject> are typing".
    static func sentence(subject: String, plural: Bool, activity: Activity) -> String
    /// What separates the sentences of mixed activities in the accessibility text.
    static var sentenceSeparator: String { get }
}

extension LanguageRules {
    static var sentenceSeparator: String { ". " }
}
