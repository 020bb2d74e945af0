import TypewireServer

/// Mints the benchmark users' tokens with the server's secret.
struct TokenMinter: Sendable {
    private let authority: TokenAuthority

    init(secret: String) async throws {
        authority = try await TokenAuthority(secret: secret)
    }

    /// A token for a user, valid for a day; a bot's carries the bot role.
    func token(for user: String, isBot: Bool = false) async throws -> String {
        try await authority.sign(Identity(userID: user, name: user, isBot: isBot))
    }
}
