import Testing
import TypewireCore

/// One row of the `progress` table of TestVectors/typing-text.json, which the web demo checks too.
struct ProgressVector: Decodable, CustomTestStringConvertible {
    var locale: String
    var progress: String
    var text: String

    var testDescription: String { "\(locale): \(progress) → \(text)" }

    var readProgress: ReadState.Progress? {
        switch progress {
        case "sent": .sent
        case "delivered": .delivered
        case "read": .read
        default: nil
        }
    }

    private struct Table: Decodable { var progress: [ProgressVector] }
    static let all = testVectorTable("typing-text.json", as: Table.self).progress
}

@Suite("TypingText: a message's ticks, said")
struct ProgressTextTests {
    @Test(arguments: ProgressVector.all)
    func sharedVector(_ vector: ProgressVector) throws {
        let formatter = TypingText(configuration: .init(locale: try #require(TypingLocale(identifier: vector.locale))))
        #expect(formatter.progressText(try #require(vector.readProgress)) == vector.text)
    }

    @Test func everyLanguageSaysEveryStep() {
        for locale in TypingLocale.all.map(\.identifier) {
            #expect(Set(ProgressVector.all.filter { $0.locale == locale }.map(\.progress)) == ["sent", "delivered", "read"], "\(locale)")
        }
    }
}
