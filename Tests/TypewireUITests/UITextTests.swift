import Foundation
import Testing
import TypewireClient
import TypewireCore

@testable import TypewireUI

/// TypewireUI's own words come from the app's table or the package's bundle, and the typing text and the
/// words follow one language: the app's.
@Suite("UIText and the app's language")
struct UITextTests {
    @Test func everyWordIsInEveryBuiltInLanguageOfThePackagesBundle() throws {
        for language in TypingLocale.all.map(\.identifier) {
            let table = try #require(UIText.packageTable(for: language), "no table for \(language)")
            for word in UIText.allCases {
                // A key the table lacks gives back the value asked with, even where a translation is the English word.
                let missing = "\u{0}missing"
                #expect(table.localizedString(forKey: word.rawValue, value: missing, table: nil) != missing, "\(word) in \(language)")
                let text = word.localized(in: language)
                #expect(!text.isEmpty)
                if language != "en" { #expect(text != word.rawValue || word == .message && language == "fr", "\(word) in \(language)") }
            }
        }
        #expect(UIText.send.localized(in: "de") == "Senden" && UIText.notSent.localized(in: "ja") == "未送信")
        #expect(UIText.send.localized(in: "ar") == "إرسال" && UIText.send.localized(in: "zh-Hans") == "发送")
        #expect(UIText.send.localized(in: "nl") == "Send", "a language the bundle lacks: English")
    }

    @Test func aBubbleReadsWhoWroteItItsTextAndItsState() {
        let bobs = MessageItem(id: "m1", messageID: "1", sender: "bob", senderName: "Bob", text: "Fine", editedAt: 5)
        #expect(bobs.accessibilityLabel(isMine: false, language: "en") == "Bob, Fine, Edited")
        let nameless = MessageItem(id: "m2", sender: "carol", text: "Hi")
        #expect(nameless.accessibilityLabel(isMine: false, language: "en") == "carol, Hi")
        let mine = MessageItem(id: "pending-1", sender: "alice", text: "On my way", isPending: true)
        #expect(mine.accessibilityLabel(isMine: true, language: "en") == "You, On my way, Sending")
        #expect(mine.accessibilityLabel(isMine: true, language: "de") == "Du, On my way, Wird gesendet")
        let refused = MessageItem(id: "pending-2", sender: "alice", text: "Too long", isFailed: true)
        #expect(refused.accessibilityLabel(isMine: true, language: "ja") == "あなた, Too long, 未送信")
        #expect(refused.accessibilityLabel(isMine: true, language: "zh-Hans") == "你, Too long, 未发送")
        #expect(mine.accessibilityLabel(isMine: true, language: "ar") == "أنت, On my way, جارٍ الإرسال")
        let stopped = MessageItem(id: "stream-clawd-r1", sender: "clawd", senderName: "Clawd", text: "Once upon a", replyEnd: .cancelled)
        #expect(stopped.accessibilityLabel(isMine: false, language: "en") == "Clawd, Once upon a, Stopped")
        #expect(stopped.accessibilityLabel(isMine: false, language: "fr") == "Clawd, Once upon a, Arrêté")
        #expect(stopped.accessibilityLabel(isMine: false, language: "ko") == "Clawd, Once upon a, 중지됨")
        let finished = MessageItem(id: "stream-clawd-r2", sender: "clawd", senderName: "Clawd", text: "Done", replyEnd: .finished)
        #expect(finished.accessibilityLabel(isMine: false, language: "en") == "Clawd, Done", "a finished reply says nothing more")
    }

    @Test func theClientSpeaksTheAppsLanguageByDefault() {
        #expect(TypewireClient.Configuration().text.locale == TypingLocale.app)
        #expect(TypingLocale.app == TypingLocale.preferred(from: [TypingLocale.appLanguage]))
        #expect(TypingLocale.appLanguage == Bundle.main.preferredLocalizations.first ?? "en")
    }

    @Test func aScreenIsInOneLanguageTheAppsNotThePhones() {
        // An English-only app on a German phone: English throughout (the phone's language was the typing
        // text's before, beside English words).
        let englishOnly = TypingLocale.screenLanguage(appLocalizations: ["en"], preferences: ["de-DE", "en-US"])
        #expect(englishOnly == "en")
        #expect(TypingLocale.preferred(from: [englishOnly]) == .english && UIText.send.localized(in: englishOnly) == "Send")
        // The same phone, an app in English and German: German throughout.
        let german = TypingLocale.screenLanguage(appLocalizations: ["en", "de"], preferences: ["de-DE", "en-US"])
        #expect(german == "de")
        #expect(TypingLocale.preferred(from: [german]) == .german && UIText.send.localized(in: german) == "Senden")
        #expect(UIText.send.localized(in: "de-CH") == "Senden", "a region falls back to its language")
        #expect(TypingLocale.screenLanguage(appLocalizations: ["en", "de"], preferences: ["fr-FR", "de-AT"]) == "de")
        #expect(TypingLocale.screenLanguage(appLocalizations: ["en", "pt-BR"], preferences: ["pt-PT"]) == "pt-BR")
        #expect(TypingLocale.screenLanguage(appLocalizations: ["en", "zh-Hans"], preferences: ["zh-Hant-TW"]) == "en")
        #expect(TypingLocale.screenLanguage(appLocalizations: ["Base", "en", "zh-Hans"], preferences: ["zh-Hans-CN"]) == "zh-Hans")
    }

    @Test func theAppsOwnTableChangesAWordAndAddsALanguage() throws {
        let app = try Self.appBundle(tables: ["de": #""Send" = "Abschicken";"#, "nl": #""Send" = "Verstuur"; "Message" = "Bericht";"#])
        #expect(UIText.send.localized(in: "de", appBundle: app) == "Abschicken", "the app's word wins")
        #expect(UIText.message.localized(in: "de", appBundle: app) == "Nachricht", "a word the app's table lacks is the package's")
        #expect(
            UIText.send.localized(in: "nl", appBundle: app) == "Verstuur" && UIText.message.localized(in: "nl", appBundle: app) == "Bericht"
        )
        #expect(UIText.notSent.localized(in: "nl", appBundle: app) == "Not sent", "a word no table has is English")
        #expect(UIText.send.localized(in: "zh-Hant", appBundle: app) == "Send", "no table for the script: English, not another script's")
    }

    /// A folder laid out as an app's bundle with a `TypewireUI.strings` per language.
    private static func appBundle(tables: [String: String]) throws -> Bundle {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typewire-app-\(UUID().uuidString)")
        for (language, strings) in tables {
            let lproj = folder.appendingPathComponent("\(language).lproj")
            try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
            try Data(strings.utf8).write(to: lproj.appendingPathComponent("TypewireUI.strings"))
        }
        return try #require(Bundle(path: folder.path))
    }
}

/// What an app shows for a message source's refusal: its description.
@Suite("MessageSourceError: what an app shows")
struct MessageSourceErrorTests {
    @Test func itDescribesItselfForAPerson() {
        let error: any Error = MessageSourceError.threadsNotSupported
        #expect(error.localizedDescription == MessageSourceError.threadsNotSupported.description)
    }
}
