import Foundation
import Testing
import TypewireClient
import TypewireCore

@testable import TypewireUI

/// TypewireUI's own words come from its bundle, in every built-in language of ``TypingLocale``, and the SDK
/// speaks the device's.
@Suite("UIText and the device's language")
struct UITextTests {
    @Test func everyWordIsInEveryBuiltInLanguageOfThePackagesBundle() throws {
        for language in TypingLocale.all.map(\.identifier) {
            let table = try #require(UIText.table(for: language), "no table for \(language)")
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

    @Test func theClientSpeaksTheDevicesLanguageByDefault() {
        #expect(TypewireClient.Configuration().text.locale == TypingLocale.device)
        #expect(TypingLocale.device == TypingLocale.preferred(from: Locale.preferredLanguages))
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
