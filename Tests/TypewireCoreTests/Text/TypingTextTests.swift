import Foundation
import Testing
import TypewireCore

/// One row of TestVectors/typing-text.json, the table the web demo's JavaScript checks too.
struct TypingTextVector: Decodable, CustomTestStringConvertible {
    struct Member: Decodable {
        var name: String?
        var activity: MemberActivity.Kind
        var detail: String?
    }

    var locale: String
    var style: TypingText.Style
    var maxNameLength: Int?
    var typers: [Member]
    var total: Int?
    var text: String?
    var accessibility: String?
    var note: String?

    var testDescription: String {
        "\(locale)/\(style.rawValue): \(typers.map { $0.name ?? "nil" }) → \(text ?? "nil")"
    }

    static let all = testVectors("typing-text.json", as: TypingTextVector.self)
}

extension TypingText.Style: Decodable {}

@Suite("TypingText: the words")
struct TypingTextTests {
    @Test(arguments: TypingTextVector.all)
    func sharedVector(_ vector: TypingTextVector) throws {
        let locale = try #require(TypingLocale(identifier: vector.locale))
        let formatter = TypingText(
            configuration: .init(style: vector.style, maxNameLength: vector.maxNameLength ?? 15, locale: locale)
        )
        let typers = vector.typers.enumerated().map { index, member in
            Typer(userID: "u\(index)", name: member.name, activity: MemberActivity(kind: member.activity, detail: member.detail))
        }
        #expect(formatter.text(for: typers, total: vector.total) == vector.text)
        #expect(formatter.accessibilityText(for: typers, total: vector.total) == vector.accessibility)
    }

    @Test func theTableCoversEveryRule() {
        let vectors = TypingTextVector.all
        #expect(Set(vectors.map(\.locale)) == Set(TypingLocale.all.map(\.identifier)))
        for locale in TypingLocale.all.map(\.identifier) {
            let counts = Set(vectors.filter { $0.locale == locale && $0.style == .full && $0.total == nil }.map(\.typers.count))
            #expect(counts.isSuperset(of: [1, 2, 3]), "1, 2 and 3 typers in \(locale)")
        }
        #expect(vectors.contains { $0.typers.count >= 4 && $0.style == .full })
        #expect(vectors.contains { $0.style == .compact })
        #expect(vectors.contains { $0.typers.contains { $0.name == nil } })
        #expect(vectors.contains { $0.text == nil })
        #expect(Set(vectors.flatMap { $0.typers.map(\.activity) }).isSuperset(of: Set(MemberActivity.Kind.allCases)))
    }

    @Test func accessibilityTextHasNoEllipsis() {
        let formatter = TypingText()
        let typers = ["Alice", "Bob", "Charlie", "Dave"].map { Typer(userID: $0, name: $0) }
        for count in 1...4 {
            let text = formatter.accessibilityText(for: Array(typers.prefix(count)))
            #expect(text?.contains("…") == false)
            #expect(text?.contains("...") == false)
        }
    }

    @Test func localeIdentifiers() {
        #expect(TypingLocale(identifier: "de-CH") == .german)
        #expect(TypingLocale(identifier: "fr_FR") == .french)
        #expect(TypingLocale(identifier: "ES") == .spanish)
        #expect(TypingLocale(identifier: "ja") == .japanese)
        #expect(TypingLocale(identifier: "en-GB") == .english)
        #expect(TypingLocale(identifier: "ar-EG") == .arabic)
        #expect(TypingLocale(identifier: "pt-BR") == .portuguese)
        #expect(TypingLocale(identifier: "it_IT") == .italian)
        #expect(TypingLocale(identifier: "ko-KR") == .korean)
        #expect(TypingLocale(identifier: "xx") == nil)
        #expect(TypingLocale(identifier: "") == nil)
    }

    @Test func chineseIsSimplifiedUnlessTheIdentifierSaysTraditional() {
        for identifier in ["zh", "zh-Hans", "zh-CN", "zh-SG", "zh-Hans-CN", "zh_CN", "zh-Hans-HK"] {
            #expect(TypingLocale(identifier: identifier) == .simplifiedChinese, "\(identifier)")
        }
        for identifier in ["zh-Hant", "zh-TW", "zh-HK", "zh-MO", "zh-Hant-TW", "zh_TW"] {
            #expect(TypingLocale(identifier: identifier) == nil, "\(identifier)")
        }
        #expect(TypingLocale.simplifiedChinese.identifier == "zh-Hans")
    }

    @Test func nameLimitIsConfiguration() {
        let typer = [Typer(userID: "a", name: "Alexander")]
        #expect(TypingText(configuration: .init(maxNameLength: 5)).text(for: typer) == "Alex… is typing…")
        #expect(TypingText(configuration: .init(maxNameLength: 9)).text(for: typer) == "Alexander is typing…")
        #expect(TypingText(configuration: .init(maxNameLength: 1)).configuration.maxNameLength == 2, "a limit keeps room for one letter")
    }

    @Test func emojiNamesAreCutByCharacter() {
        let typer = [Typer(userID: "a", name: "👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦👩‍👩‍👧‍👦")]
        #expect(TypingText(configuration: .init(maxNameLength: 3)).text(for: typer) == "👩‍👩‍👧‍👦👩‍👩‍👧‍👦… is typing…")
    }
}
