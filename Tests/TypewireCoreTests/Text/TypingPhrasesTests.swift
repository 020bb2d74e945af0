import Testing
import TypewireCore

/// An app's own words: a phrase of a built-in language replaced, or a language Typewire lacks; and the
/// device's language chosen among the built-in ones.
@Suite("TypingPhrases and the preferred locale")
struct TypingPhrasesTests {
    let alice = Typer(userID: "alice", name: "Alice")
    let bob = Typer(userID: "bob", name: "Bob")
    let carol = Typer(userID: "carol", name: "Carol")

    @Test func anAppReplacesOnePhraseOfABuiltInLanguageAndKeepsTheRest() {
        var phrases = TypingLocale.german.phrases
        let german = TypingLocale.german.phrases
        phrases.sentence = { subject, count, activity in
            activity == .typing ? "\(subject) \(count > 1 ? "tippen" : "tippt")" : german.sentence(subject, count, activity)
        }
        let text = TypingText(configuration: .init(locale: TypingLocale(identifier: "de-x-app", phrases: phrases)))
        #expect(text.text(for: [alice]) == "Alice tippt…")
        #expect(text.text(for: [alice, bob]) == "Alice und Bob tippen…")
        #expect(
            text.text(for: [Typer(userID: "clawd", name: "Clawd", activity: .thinking)])
                == TypingText(configuration: .init(locale: .german)).text(for: [Typer(userID: "clawd", name: "Clawd", activity: .thinking)])
        )
    }

    @Test func anAppAddsALanguage() {
        let dutch = TypingPhrases(
            someone: "Iemand", people: { "\($0) mensen" }, pair: { "\($0) en \($1)" }, triple: { "\($0), \($1) en \($2)" },
            twoAndOthers: { "\($0), \($1) en \($2) anderen" }, oneAndOthers: { "\($0) en \($1) anderen" },
            sentence: { subject, count, _ in "\(subject) \(count > 1 ? "typen" : "typt")" })
        let text = TypingText(configuration: .init(locale: TypingLocale(identifier: "nl", phrases: dutch)))
        #expect(text.text(for: [alice]) == "Alice typt…")
        #expect(text.text(for: [alice, bob, carol]) == "Alice, Bob en Carol typen…")
        #expect(text.accessibilityText(for: [alice, bob]) == "Alice en Bob typen")
        #expect(TypingLocale(identifier: "nl", phrases: dutch) != .english)
    }

    @Test func theFirstBuiltInLanguageAmongThePreferredOnesIsChosen() {
        #expect(TypingLocale.preferred(from: ["fr-CA", "en-US"]) == .french)
        #expect(TypingLocale.preferred(from: ["nl-NL", "de-AT", "en"]) == .german, "Dutch is not built in: the next one")
        #expect(TypingLocale.preferred(from: ["ja-JP"]) == .japanese)
        #expect(TypingLocale.preferred(from: ["zh-Hant-TW", "zh-Hans-CN"]) == .simplifiedChinese, "Traditional is not built in")
        #expect(TypingLocale.preferred(from: ["zh-TW", "ko-KR"]) == .korean)
        #expect(TypingLocale.preferred(from: ["nl"]) == .english)
        #expect(TypingLocale.preferred(from: []) == .english)
    }

    @Test func aBuiltInTableSaysWhatItsLocaleSays() {
        for locale in TypingLocale.all {
            let own = TypingText(configuration: .init(locale: locale))
            let copied = TypingText(configuration: .init(locale: TypingLocale(identifier: "copy", phrases: locale.phrases)))
            for typers in [[alice], [alice, bob], [alice, bob, carol], [alice, bob, carol, Typer(userID: "d", name: nil)]] {
                #expect(own.text(for: typers, total: 5) == copied.text(for: typers, total: 5), "\(locale)")
            }
        }
    }
}
