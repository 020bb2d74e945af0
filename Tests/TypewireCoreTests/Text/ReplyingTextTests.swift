import Testing
import TypewireCore

/// One row of the `replying` table of TestVectors/typing-text.json, which the web demo checks too.
struct ReplyingVector: Decodable, CustomTestStringConvertible {
    var locale: String
    var count: Int
    var text: String?
    var accessibility: String?

    var testDescription: String { "\(locale): \(count) → \(text ?? "nil")" }

    private struct Table: Decodable { var replying: [ReplyingVector] }
    static let all = testVectorTable("typing-text.json", as: Table.self).replying
}

@Suite("TypingText: how many reply in a thread")
struct ReplyingTextTests {
    @Test(arguments: ReplyingVector.all)
    func sharedVector(_ vector: ReplyingVector) throws {
        let formatter = TypingText(configuration: .init(locale: try #require(TypingLocale(identifier: vector.locale))))
        #expect(formatter.replyingText(count: vector.count) == vector.text)
        #expect(formatter.accessibilityReplyingText(count: vector.count) == vector.accessibility)
    }

    @Test func everyLanguageHasNoneOneAndMany() {
        for locale in TypingLocale.all.map(\.identifier) {
            #expect(Set(ReplyingVector.all.filter { $0.locale == locale }.map(\.count)).isSuperset(of: [0, 1, 2]), "\(locale)")
        }
    }

    @Test func anAppsOwnTableMaySayItsOwnWords() {
        var phrases = TypingLocale.english.phrases
        phrases.replying = { "\($0) in the thread" }
        let text = TypingText(configuration: .init(locale: TypingLocale(identifier: "en-x-app", phrases: phrases)))
        #expect(text.replyingText(count: 3) == "3 in the thread…")
    }
}
