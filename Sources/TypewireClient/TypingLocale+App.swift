import Foundation
import TypewireCore

extension TypingLocale {
    /// The language an app's screen is in, given the languages the app declares (its `.lproj` folders,
    /// `Bundle.localizations`) and the user's, most preferred first: the first of the user's languages the
    /// app has (`"de"` for `"de-CH"`; a script must match: `"zh-Hans"` is not `"zh-Hant"`), else the app's
    /// first. An English-only app on a German phone is in English; an app in English and German on that
    /// phone, in German.
    ///
    /// It is the choice Apple's platforms make for the app's own strings
    /// (`Bundle.preferredLocalizations(from:forPreferences:)`), written out because swift-corelibs-foundation's
    /// ignores the preferences. Typing text (``app``) and TypewireUI's words both follow it, so a screen never
    /// mixes two languages.
    public static func screenLanguage(appLocalizations: [String], preferences: [String]) -> String {
        let localizations = appLocalizations.filter { $0 != "Base" }
        for preference in preferences.map(Self.parts) {
            if let exact = localizations.first(where: { Self.parts($0) == preference }) { return exact }
            // The app's table for the language (and script), for a preference that adds a region or a script.
            if let general = localizations.first(where: { preference.starts(with: Self.parts($0)) }) { return general }
            // A regional table of the language, unless a script tells them apart (Chinese).
            if preference.first != "zh", let regional = localizations.first(where: { Self.parts($0).first == preference.first }) {
                return regional
            }
        }
        return localizations.first ?? "en"
    }

    /// An identifier's parts in lower case: `"zh_Hans-CN"` → `["zh", "hans", "cn"]`.
    private static func parts(_ identifier: String) -> [Substring] {
        identifier.lowercased().split { $0 == "-" || $0 == "_" }
    }

    /// The language the running app's screens are in: the one the system chose among the main bundle's
    /// localizations (`Bundle.main.preferredLocalizations`), as ``screenLanguage(appLocalizations:preferences:)``
    /// describes.
    public static var appLanguage: String { Bundle.main.preferredLocalizations.first ?? "en" }

    /// The typing text's language for the running app: the built-in locale of ``appLanguage``, English if
    /// Typewire has none (give the client a locale of the app's own words,
    /// ``/TypewireCore/TypingLocale/init(identifier:phrases:)``, for another).
    public static var app: TypingLocale { preferred(from: [appLanguage]) }

    /// The earlier default, which followed the user's languages (`Locale.preferredLanguages`) even where the
    /// app has no strings of its own in them.
    @available(*, deprecated, renamed: "app", message: "the typing text follows the app's language, as its other words do")
    public static var device: TypingLocale { app }
}
