import Foundation
import TypewireClient
import TypewireCore

/// TypewireUI's own words ("Message", "Send", "Not sent", "Try Again", "Stop", the connection's banner), in
/// the app's language (`TypingLocale.appLanguage`), as the typing text is: one language per screen.
///
/// A word is looked up first in the app's own table `TypewireUI.strings` in that language (an app's
/// wording, or a language Typewire does not have: `nl.lproj/TypewireUI.strings` with `"Send" = "Verstuur";`),
/// then in the package's bundle (the ten built-in languages of ``/TypewireCore/TypingLocale``: English, German, French,
/// Spanish, Japanese, Arabic, Portuguese, Italian, Simplified Chinese, Korean), and is English otherwise.
public enum UIText: String, CaseIterable, Sendable {
    /// The message field's placeholder.
    case message = "Message"
    /// The send button.
    case send = "Send"
    /// Under a message the server refused.
    case notSent = "Not sent"
    /// The button beside "Not sent" that sends the message again (``ConversationModel/retry(itemID:)``).
    case tryAgain = "Try Again"
    /// A conversation's banner while the client gets a dropped connection back (``ConnectionBanner``).
    case reconnecting = "Connecting…"
    /// The banner while no network path reaches the server.
    case offline = "No connection"
    /// The banner once the client gave up connecting.
    case cannotConnect = "Can't connect"
    /// VoiceOver's name for the user's own bubbles (``MessageItem/accessibilityLabel(isMine:language:)``).
    case you = "You"
    /// VoiceOver's word for a bubble on its way.
    case sending = "Sending"
    /// VoiceOver's word for an edited message.
    case edited = "Edited"
    /// The button under a bot's streaming reply that stops it (``ConversationModel/stop(replyID:)``).
    case stop = "Stop"
    /// Under a bot's reply that a member stopped (``MessageItem/replyEnd`` `.cancelled`).
    case stopped = "Stopped"
    /// Under a bot's reply the server ended because the bot went silent (`.timedOut`).
    case cutOff = "Cut off"
    /// Under a bot's reply the bot could not finish (`.failed`).
    case replyFailed = "Couldn't reply"

    /// In the app's language (`TypingLocale.appLanguage`), from the app's table or the package's.
    public var localized: String { localized(in: TypingLocale.appLanguage) }

    /// In one language (`"de"`, `"pt-BR"`): the app's table `TypewireUI.strings` in `appBundle` if it has
    /// the word, else the package's, else English. A region or script falls back to its language's table
    /// (`"de-CH"` to `de`), never to another script's (`"zh-Hant"` is not `zh-Hans`). nil: ``localized``.
    public func localized(in language: String?, appBundle: Bundle = .main) -> String {
        guard let language else { return localized }
        if let app = Self.table(language, in: appBundle), let word = Self.word(rawValue, in: app, table: "TypewireUI") {
            return word
        }
        if let package = Self.table(language, in: .module), let word = Self.word(rawValue, in: package, table: nil) {
            return word
        }
        return rawValue
    }

    /// The package's own table of a language, if it has one.
    static func packageTable(for language: String) -> Bundle? { table(language, in: .module) }

    /// A bundle's `.lproj` for a language: its own, or its bare language code's. SwiftPM writes a
    /// localization's folder in lower case (`zh-hans.lproj`) and a bundle's paths are case-sensitive, so
    /// both spellings are looked for.
    private static func table(_ language: String, in bundle: Bundle) -> Bundle? {
        let code = String(language.prefix { $0.isLetter })
        for name in [language, language.lowercased(), code] {
            if let path = bundle.path(forResource: name, ofType: "lproj"), let table = Bundle(path: path) { return table }
        }
        return nil
    }

    /// The word for `key` in one `.lproj`'s table, or nil if the table lacks it.
    private static func word(_ key: String, in lproj: Bundle, table: String?) -> String? {
        let missing = "\u{0}"
        let word = lproj.localizedString(forKey: key, value: missing, table: table)
        return word == missing ? nil : word
    }
}
