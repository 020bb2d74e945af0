import Hummingbird

/// The rule every id a request names must pass (a user id in a REST path or body, an id of the server API):
/// 1 to `maxBytes` bytes of UTF-8 without control, bidi or zero-width characters
/// (``DisplayName/isAcceptableID(_:maxBytes:)``), as a token's `sub` must be; otherwise 400 naming the field.
/// Such ids are shown in other users' participant lists, so they are held to the rule before anything is
/// stored.
enum RequestIdentifier {
    /// Throws 400 if `id` breaks the rule.
    static func check(_ id: String, field: String, maxBytes: Int) throws {
        guard DisplayName.isAcceptableID(id, maxBytes: maxBytes) else {
            throw HTTPError(
                .badRequest,
                message:
                    "\"\(field)\" must be 1 to \(maxBytes) bytes without control, bidi or zero-width characters; '\(id.prefix(64))' is not."
            )
        }
    }
}
