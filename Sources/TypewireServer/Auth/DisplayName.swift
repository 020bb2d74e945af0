/// The rules for what the server takes as a display name or an id, from tokens and from the server API.
///
/// A display name is shown to others in every `activity` entry, participant list and message: it is cut to
/// ``maxCharacters`` and ``maxBytes`` and cleaned of what could hide or reorder what others read (control characters, bidi
/// controls, zero-width and other invisible format characters; a zero-width joiner between two visible
/// characters stays, as emoji sequences and some scripts need it). An id must carry none of them at all.
public enum DisplayName {
    /// The longest display name, in characters.
    public static let maxCharacters = 200
    /// The longest display name, in bytes of UTF-8: 200 characters of combining marks would be kilobytes in
    /// every activity entry.
    public static let maxBytes = 600

    /// The name as others see it: controls become spaces, invisible format characters are removed, runs of
    /// white space become one space, the ends are trimmed, and the rest is cut to ``maxCharacters`` and then to
    /// whole characters within ``maxBytes``.
    /// - Returns: nil for no name, or one with nothing visible left.
    public static func cleaned(_ name: String?) -> String? {
        guard let name, let text = visible(name) else { return nil }
        var cut = Substring(text.prefix(maxCharacters))
        var bytes = cut.utf8.count
        while bytes > maxBytes, let last = cut.popLast() { bytes -= last.utf8.count }
        return cut.isEmpty ? nil : String(cut)
    }

    /// Text as others see it, not cut: controls become spaces, invisible format characters are removed (a
    /// zero-width joiner between two visible characters stays), runs of white space become one space and the
    /// ends are trimmed. The rule of names, for any short text a user gives others to read (a title).
    /// - Returns: nil when nothing visible is left.
    public static func visible(_ name: String) -> String? {
        let scalars = Array(name.unicodeScalars)
        var kept = String.UnicodeScalarView()
        var pendingSpace = false
        for (index, scalar) in scalars.enumerated() {
            if isControl(scalar) || scalar.properties.isWhitespace {
                pendingSpace = !kept.isEmpty
                continue
            }
            if isInvisible(scalar) {
                let joins =
                    (scalar == "\u{200D}" || scalar == "\u{200C}") && index > 0 && index + 1 < scalars.count
                    && isVisible(scalars[index - 1]) && isVisible(scalars[index + 1])
                guard joins else { continue }
            }
            if pendingSpace {
                kept.append(" ")
                pendingSpace = false
            }
            kept.append(scalar)
        }
        return kept.isEmpty ? nil : String(kept)
    }

    /// Whether an id (a user's or a conversation's) may be taken: 1 to `maxBytes` bytes of UTF-8, and no
    /// control, bidi, zero-width or other invisible format character.
    public static func isAcceptableID(_ id: String, maxBytes: Int) -> Bool {
        !id.isEmpty && id.utf8.count <= maxBytes && !id.unicodeScalars.contains { isControl($0) || isInvisible($0) }
    }

    /// Control characters, line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// Format characters (bidi controls, zero-width spaces and joiners, the byte order mark, tags) and the
    /// other default-ignorable ones: nothing to see, and they change how the rest is read.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .format || scalar.properties.isDefaultIgnorableCodePoint
    }

    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        !isControl(scalar) && !isInvisible(scalar) && !scalar.properties.isWhitespace
    }
}
