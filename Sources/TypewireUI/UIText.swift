import Foundation

/// TypewireUI's own words ("Message", "Send", "Not sent", "Try Again", "Stop", the connection's banner), in the ten
/// built-in languages of ``TypingLocale`` (English, German, French, Spanish, Japanese, Arabic, Portuguese, Italian,
/// Simplified Chinese, Korean), from the package's bundle (`Bundle.module`), not the app's: an app that has no such
/// strings still shows them in the user's language.
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

    /// In the device's language (the bundle picks it among its ten), English otherwise.
    public var localized: String {
        Bundle.module.localizedString(forKey: rawValue, value: rawValue, table: nil)
    }

    /// In one language (`"de"`, `"zh-Hans"`, …: a ``TypingLocale/identifier``); English for a language the
    /// bundle does not have; nil: ``localized``.
    public func localized(in language: String?) -> String {
        guard let language else { return localized }
        return Self.table(for: language)?.localizedString(forKey: rawValue, value: rawValue, table: nil) ?? rawValue
    }

    /// The bundle's table of one language, if it has one. SwiftPM writes a localization's folder in lower case
    /// (`zh-hans.lproj`) and a bundle's paths are case-sensitive, so both spellings are looked for.
    static func table(for language: String) -> Bundle? {
        let path =
            Bundle.module.path(forResource: language, ofType: "lproj")
            ?? Bundle.module.path(forResource: language.lowercased(), ofType: "lproj")
        return path.flatMap(Bundle.init(path:))
    }
}
