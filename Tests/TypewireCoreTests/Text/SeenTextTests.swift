import Testing
import TypewireCore

/// One row of the `seen` table of TestVectors/typing-text.json, which the web demo checks too: readers'
/// names, or a count.
struct SeenVector: Decodable, CustomTestStringConvertible {
    var locale: String
    var names: [String?]?
    var count: Int?
    var text: String?
    var accessibility: String?

    var testDescription: String { "\(locale): \(names.map { "\($0)" } ?? "\(count ?? 0)") → \(text ?? "nil")" }

    private struct Table: Decodable { var seen: [SeenVector] }
    static let all = testVectorTable("typing-text.json", as: Table.self).seen
}

@Suite("TypingText: who has seen a message")
struct SeenTextTests {
    @Test(arguments: SeenVector.all)
    func sharedVector(_ vector: SeenVector) throws {
        let formatter = TypingText(configuration: .init(locale: try #require(TypingLocale(identifier: vector.locale))))
        if let names = vector.names {
            #expect(formatter.seenText(by: names) == vector.text)
            #expect(formatter.accessibilitySeenText(by: names) == vector.accessibility)
        } else {
            #expect(formatter.seenText(count: try #require(vector.count)) == vector.text)
        }
    }

    @Test func everyLanguageHasNamesAndCounts() {
        for locale in TypingLocale.all.map(\.identifier) {
            let rows = SeenVector.all.filter { $0.locale == locale }
            let sizes = Set(rows.compactMap { $0.names.map(\.count) })
            #expect(sizes.isSuperset(of: [0, 1, 2, 4]), "\(locale)")
            #expect(Set(rows.compactMap(\.count)).isSuperset(of: [0, 1, 37]), "\(locale)")
        }
    }

    @Test func anAppsOwnTableMaySayItsOwnWords() {
        var phrases = TypingLocale.english.phrases
        phrases.seenBy = { "Read by \($0)" }
        phrases.seenCount = { "\($0) read it" }
        let text = TypingText(configuration: .init(locale: TypingLocale(identifier: "en-x-app", phrases: phrases)))
        #expect(text.seenText(by: ["Alice", "Bob"]) == "Read by Alice and Bob")
        #expect(text.seenText(count: 3) == "3 read it")
    }
}
