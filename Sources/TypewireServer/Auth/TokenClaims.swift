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

    /// The claims jwt-kit checks, kept in their own fields.
    static let registered: Set<String> = ["sub", "exp", "nbf", "iss", "aud"]

    /// Claims with the required ones; the others are set one by one (``PlainTokenReader``).
    init(subject: SubjectClaim, expiration: ExpirationClaim) {
        self.subject = subject
        self.expiration = expiration
    }

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
        try checkTimesAndSubject()
    }

    /// What jwt-kit checks once the signature is good (``verify(using:)``): not expired, not before its
    /// `nbf`, a subject that is not empty.
    func checkTimesAndSubject(now: Date = Date()) throws {
        try expiration.verifyNotExpired(currentDate: now)
        try notBefore?.verifyNotBefore(currentDate: now)
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
