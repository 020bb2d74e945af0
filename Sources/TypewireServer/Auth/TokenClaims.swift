import Foundation
import JWTKit

/// The claims of a token as the server reads them: the registered claims jwt-kit checks (`sub`, `exp`,
/// `nbf`, `iss`, `aud`), and every other top-level string or boolean claim, where ``TokenRules`` finds the
/// display name and the bot flag under the names the server is configured with.
struct TokenClaims: JWTPayload {
    var subject: SubjectClaim
    var expiration: ExpirationClaim
    var notBefore: NotBeforeClaim?
    var issuer: IssuerClaim?
    var audience: AudienceClaim?
    /// The other claims that are strings.
    var strings: [String: String] = [:]
    /// The other claims that are booleans.
    var flags: [String: Bool] = [:]

    private static let registered: Set<String> = ["sub", "exp", "nbf", "iss", "aud"]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ClaimKey.self)
        subject = try container.decode(SubjectClaim.self, forKey: ClaimKey("sub"))
        expiration = try container.decode(ExpirationClaim.self, forKey: ClaimKey("exp"))
        notBefore = try container.decodeIfPresent(NotBeforeClaim.self, forKey: ClaimKey("nbf"))
        issuer = try container.decodeIfPresent(IssuerClaim.self, forKey: ClaimKey("iss"))
        audience = try container.decodeIfPresent(AudienceClaim.self, forKey: ClaimKey("aud"))
        for key in container.allKeys where !Self.registered.contains(key.stringValue) {
            if let text = try? container.decode(String.self, forKey: key) {
                strings[key.stringValue] = text
            } else if let flag = try? container.decode(Bool.self, forKey: key) {
                flags[key.stringValue] = flag
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ClaimKey.self)
        try container.encode(subject, forKey: ClaimKey("sub"))
        try container.encode(expiration, forKey: ClaimKey("exp"))
        try container.encodeIfPresent(notBefore, forKey: ClaimKey("nbf"))
        try container.encodeIfPresent(issuer, forKey: ClaimKey("iss"))
        try container.encodeIfPresent(audience, forKey: ClaimKey("aud"))
        for (name, text) in strings { try container.encode(text, forKey: ClaimKey(name)) }
        for (name, flag) in flags { try container.encode(flag, forKey: ClaimKey(name)) }
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try expiration.verifyNotExpired()
        try notBefore?.verifyNotBefore()
        guard !subject.value.isEmpty else {
            throw JWTError.claimVerificationFailure(failedClaim: subject, reason: "empty subject")
        }
    }
}

/// A claim's name as a coding key.
struct ClaimKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// What a token claims, read before its signature is checked: the header fields that choose how it is
/// verified, and the user it names (to turn away a user past their handshake budget before the token
/// costs a verification; never trusted for anything else).
struct UncheckedToken: Equatable, Sendable {
    var algorithm: String?
    var keyID: String?
    var subject: String?
    /// The `iss` claim, if it is a string.
    var issuer: String?
    /// The `exp` claim in seconds since 1970, if it is a number.
    var expiresAt: Double?

    /// The claims of a token, or nil if it is not a JWT.
    init?(of token: String) {
        guard let parsed = try? DefaultJWTParser().parse(Array(token.utf8), as: SubjectPayload.self) else { return nil }
        algorithm = parsed.header.alg
        keyID = parsed.header.kid
        subject = parsed.payload.sub
        issuer = parsed.payload.iss
        expiresAt = parsed.payload.exp
    }

    /// Whether the token could be valid for these rules, as far as can be told before its signature is
    /// checked: it names a user, the configured issuer (if any), and has not expired. Only such a token may
    /// make the server read the identity provider's key set again (``KeySet``).
    func couldBeValid(under rules: TokenRules, now: Double) -> Bool {
        guard subject != nil, let expiresAt, expiresAt > now else { return false }
        return rules.issuer.map { $0 == issuer } ?? true
    }

    /// A payload that accepts any object and reads its `sub`, `iss` and `exp` if they have the right types.
    private struct SubjectPayload: JWTPayload {
        var sub: String?
        var iss: String?
        var exp: Double?

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: ClaimKey.self)
            sub = try? container?.decodeIfPresent(String.self, forKey: ClaimKey("sub"))
            iss = try? container?.decodeIfPresent(String.self, forKey: ClaimKey("iss"))
            exp = try? container?.decodeIfPresent(Double.self, forKey: ClaimKey("exp"))
        }

        func encode(to encoder: any Encoder) throws {}
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
