import Hummingbird

/// The rule a short text a request gives others to read must pass (a conversation's title, a user's name
/// through the server API): at most `maxCharacters` characters and three bytes of UTF-8 per character
/// allowed (the limit a display name has: ``DisplayName/maxBytes``), otherwise 400 naming the field; what
/// passes is cleaned as a name is (``DisplayName/visible(_:)``), so nothing in it hides or reorders what
/// others read. Counted before cleaning: the bytes a client sends are what the limit bounds.
enum RequestText {
    /// - Returns: The text as others will see it, or nil when nothing visible is left.
    static func checked(_ text: String, field: String, maxCharacters: Int) throws -> String? {
        let maxBytes = maxCharacters.multipliedReportingOverflow(by: 3).overflow ? Int.max : maxCharacters * 3
        let characters = text.count
        let bytes = text.utf8.count
        guard characters <= maxCharacters, bytes <= maxBytes else {
            throw HTTPError(
                .badRequest,
                message:
                    "\"\(field)\" has \(characters) characters in \(bytes) bytes of UTF-8; the limit is \(maxCharacters) characters and \(maxBytes) bytes."
            )
        }
        return DisplayName.visible(text)
    }
}
