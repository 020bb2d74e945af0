import Foundation
import JWTKit

/// Verifies the tokens users connect with, and signs HS256 tokens with the server's own secret.
///
/// A token is verified by the key its header's `alg` calls for, and by no other: `HS256` with the secret
/// (`--jwt-secret`), `RS256` and `ES256` with the key its `kid` names in the identity provider's key set
/// (`--jwks`). So an HS256 token cannot pass as signed with a public key, and a key-set token must name a
/// key the set has. Tokens with `alg` none, another algorithm, a wrong signature, a past `exp`, a future
/// `nbf`, or that fail the ``TokenRules`` are refused.
///
/// An HS256 token is verified where it arrives (on the socket's event loop), from the claims
/// ``UncheckedToken`` read: its JSON is read once, and no hop to jwt-kit's key collection, an actor, is made.
public struct TokenAuthority: Sendable {
    /// Signs the server's own tokens.
    private let secretKeys: JWTKeyCollection?
    /// The secret's HS256 key, taken out of ``secretKeys`` once.
    private let secretKey: (any JWTAlgorithm)?
    private let keySet: KeySet?
    private let rules: TokenRules

    /// The shortest secret accepted, in bytes: HS256 wants a key at least as long as its hash.
    public static let minimumSecretLength = 32

    /// Creates an authority for a secret alone, with the default rules.
    /// - Throws: ``TokenAuthorityError`` if the secret is shorter than ``minimumSecretLength`` bytes.
    public init(secret: String) async throws(TokenAuthorityError) {
        try await self.init(secret: secret, keySet: nil, rules: TokenRules())
    }

    /// Creates an authority.
    /// - Parameters:
    ///   - secret: The HS256 secret, if tokens signed with one are accepted.
    ///   - keySet: The identity provider's keys, if RS256 and ES256 tokens are accepted; loaded already.
    ///   - rules: Issuer, audience and the claims of the name and the bot flag.
    /// - Throws: ``TokenAuthorityError`` if the secret is too short, or there is neither a secret nor a key set.
    public init(secret: String?, keySet: KeySet?, rules: TokenRules) async throws(TokenAuthorityError) {
        if let secret {
            guard secret.utf8.count >= Self.minimumSecretLength else { throw .secretTooShort(secret.utf8.count) }
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            secretKeys = keys
            secretKey = try? await keys.getKey()
        } else {
            guard keySet != nil else { throw .noKeys }
            secretKeys = nil
            secretKey = nil
        }
        self.keySet = keySet
        self.rules = rules
    }

    /// The identity a token names, or nil if the token is not valid.
    nonisolated(nonsending) public func verify(_ token: String) async -> Identity? {
        await verifyWithExpiry(token)?.identity
    }

    /// The identity a token names and when the token expires, or nil if the token is not valid.
    nonisolated(nonsending) public func verifyWithExpiry(_ token: String) async -> (identity: Identity, expiresAt: Date)? {
        guard let unchecked = UncheckedToken(of: token) else { return nil }
        return await verifyWithExpiry(token, unchecked: unchecked)
    }

    /// ``verifyWithExpiry(_:)`` for a token whose unchecked claims were read already. Runs on the caller's
    /// executor: an HS256 token is verified there without suspending.
    nonisolated(nonsending) func verifyWithExpiry(
        _ token: String, unchecked header: UncheckedToken
    ) async -> (identity: Identity, expiresAt: Date)? {
        let claims: TokenClaims?
        switch header.algorithm {
        case "HS256":
            guard let secretKey, let signed = header.signed else { return nil }
            claims = signed.verified(by: secretKey)
        case "RS256", "ES256":
            guard let keySet, let keyID = header.keyID else { return nil }
            let mayRead = header.couldBeValid(under: rules, now: Date().timeIntervalSince1970)
            claims = try? await keySet.verify(token, keyID: keyID, mayReadAgain: mayRead)
        default:
            return nil
        }
        guard let claims, let identity = rules.identity(from: claims) else { return nil }
        return (identity, claims.expiration.value)
    }

    /// Mints an HS256 token with the secret.
    /// - Parameters:
    ///   - identity: Who the token names.
    ///   - lifetime: How long it is valid, at most the rules' ``TokenRules/maxLifetime`` (a negative one mints a
    ///     token expired already, for tests).
    /// - Throws: ``TokenAuthorityError`` if the authority has no secret or the lifetime is out of range.
    public func sign(_ identity: Identity, lifetime: Duration = .seconds(86_400)) async throws -> String {
        guard let secretKeys else { throw TokenAuthorityError.noSecretToSign }
        guard lifetime <= rules.maxLifetime else {
            throw TokenAuthorityError.lifetimeTooLong(lifetime, max: rules.maxLifetime)
        }
        // Whole seconds, as other issuers write `exp`: the token is then plain (``PlainTokenReader``).
        let expiry = (Date().timeIntervalSince1970 + Double(lifetime.components.seconds)).rounded(.down)
        let claims = TypewireClaims(
            sub: .init(value: identity.userID), name: identity.name,
            exp: .init(value: Date(timeIntervalSince1970: expiry)), role: identity.isBot ? "bot" : nil
        )
        return try await secretKeys.sign(claims)
    }
}
