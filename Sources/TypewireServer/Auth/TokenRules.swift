import Foundation
import JWTKit

/// What a token must say beyond a valid signature, and where its display name and bot flag are.
///
/// The rules apply to every token, whichever key signed it. Defaults fit tokens made by `typewire token`
/// (`name`, and `role` = `bot` for bots); an identity provider's tokens usually need ``issuer`` and
/// ``audience`` (docs/INTEGRATION.md gives Firebase Authentication's).
public struct TokenRules: Sendable, Hashable {
    /// The `iss` a token must carry, if set.
    public var issuer: String?
    /// A value the token's `aud` must hold, if set.
    public var audience: String?
    /// The claim with the user's display name. Default `name`.
    public var nameClaim: String
    /// The claim that marks a bot: the user is a bot when it is `true`, `"true"` or `"bot"`. Default `role`.
    public var botClaim: String
    /// The furthest ahead a token's `exp` may be: a token that claims to live longer is refused as invalid.
    /// Default ``defaultMaxLifetime``, a year.
    public var maxLifetime: Duration

    /// A year: longer than any identity provider's tokens live (Firebase's an hour), short enough that a leaked
    /// token does not stay good for ever.
    public static let defaultMaxLifetime: Duration = .seconds(365 * 86_400)

    /// Creates rules.
    public init(
        issuer: String? = nil, audience: String? = nil, nameClaim: String = "name", botClaim: String = "role",
        maxLifetime: Duration = defaultMaxLifetime
    ) {
        self.issuer = issuer
        self.audience = audience
        self.nameClaim = nameClaim
        self.botClaim = botClaim
        self.maxLifetime = maxLifetime
    }

    /// The longest user id (`sub`) a token may carry, in bytes of UTF-8.
    static let maxSubjectBytes = 256

    /// The identity verified claims name, or nil if they fail the issuer or audience rule, expire further than
    /// ``maxLifetime`` after `now`, or name a user id that is too long or carries invisible characters
    /// (``DisplayName/isAcceptableID(_:maxBytes:)``). The display name is cleaned and cut to 200 characters
    /// (``DisplayName/cleaned(_:)``).
    func identity(from claims: TokenClaims, now: Date = Date()) -> Identity? {
        guard claims.expiration.value.timeIntervalSince(now) <= Double(maxLifetime.components.seconds) else { return nil }
        guard DisplayName.isAcceptableID(claims.subject.value, maxBytes: Self.maxSubjectBytes) else { return nil }
        if let issuer, claims.issuer?.value != issuer { return nil }
        if let audience {
            guard let claimed = claims.audience, (try? claimed.verifyIntendedAudience(includes: audience)) != nil else { return nil }
        }
        let bot = claims.flags[botClaim] == true || ["bot", "true"].contains(claims.strings[botClaim])
        return Identity(userID: claims.subject.value, name: DisplayName.cleaned(claims.strings[nameClaim]), isBot: bot)
    }
}
