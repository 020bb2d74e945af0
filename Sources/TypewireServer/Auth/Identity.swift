import JWTKit

/// Who a verified token names. The server takes a user's id from here only, never from a frame.
public struct Identity: Sendable, Hashable {
    /// The user id (`sub`).
    public var userID: String
    /// The display name (`name`), if the token carries one.
    public var name: String?
    /// Whether the user is a bot (`role` = `bot`).
    public var isBot: Bool

    /// Creates an identity.
    public init(userID: String, name: String?, isBot: Bool = false) {
        self.userID = userID
        self.name = name
        self.isBot = isBot
    }
}

/// The claims of a Typewire token: `sub`, `name`, `exp`, and `role` for bots.
struct TypewireClaims: JWTPayload {
    var sub: SubjectClaim
    var name: String?
    var exp: ExpirationClaim
    var role: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        guard !sub.value.isEmpty else { throw JWTError.claimVerificationFailure(failedClaim: sub, reason: "empty subject") }
    }
}
