import Foundation
import TypewireCore

extension TypingLocale {
    /// The device's language: the first built-in locale among the user's preferred languages
    /// (`Locale.preferredLanguages`), English if none of them is built in.
    public static var device: TypingLocale { preferred(from: Locale.preferredLanguages) }
}
