import Foundation
import JWTKit

/// What a token claims, read before its signature is checked: the header fields that choose how it is
/// verified, and the user it names (to turn away a user past their handshake budget before the token
/// costs a verification; never trusted for anything else).
///
/// The token's JSON is read once, here: when its claims are those the server requires, ``signed`` keeps
/// them with the signature and the bytes it covers, and an HS256 token is then verified from them
/// (``TokenAuthority``) without reading the token again.
struct UncheckedToken: Equatable, Sendable {
    var algorithm: String?
    var keyID: String?
    var subject: String?
    /// The `iss` claim, if it is a string.
    var issuer: String?
    /// The `exp` claim in seconds since 1970, if it is a number.
    var expiresAt: Double?
    /// The claims as the server reads them, with what their signature is checked against; nil if they
    /// lack a claim the server requires (`sub`, `exp`) or one has the wrong type.
    var signed: SignedClaims?

    /// The claims of a token, or nil if it is not a JWT. A plain token is read by ``PlainTokenReader``, any
    /// other by jwt-kit's parser.
    init?(of token: String) {
        let bytes = Array(token.utf8)
        if let plain = PlainTokenReader.read(bytes) {
            algorithm = plain.algorithm
            keyID = plain.keyID
            subject = plain.claims.subject.value
            issuer = plain.claims.issuer?.value
            expiresAt = plain.claims.expiration.value.timeIntervalSince1970
            signed = SignedClaims(claims: plain.claims, signature: plain.signature, signingInput: plain.signingInput)
            return
        }
        guard let parsed = try? DefaultJWTParser().parse(bytes, as: Payload.self) else { return nil }
        algorithm = parsed.header.alg
        keyID = parsed.header.kid
        subject = parsed.payload.sub
        issuer = parsed.payload.iss
        expiresAt = parsed.payload.exp
        if let claims = parsed.payload.claims, let signingInput = Self.signingInput(of: bytes) {
            signed = SignedClaims(claims: claims, signature: parsed.signature, signingInput: signingInput)
        }
    }

    /// Whether the token could be valid for these rules, as far as can be told before its signature is
    /// checked: it names a user, the configured issuer (if any), and has not expired. Only such a token may
    /// make the server read the identity provider's key set again (``KeySet``).
    func couldBeValid(under rules: TokenRules, now: Double) -> Bool {
        guard subject != nil, let expiresAt, expiresAt > now else { return false }
        return rules.issuer.map { $0 == issuer } ?? true
    }

    /// What a JWS signature covers: the token up to its second period (RFC 7515, 5.2).
    private static func signingInput(of token: [UInt8]) -> ArraySlice<UInt8>? {
        guard let first = token.firstIndex(of: UInt8(ascii: ".")),
            let second = token[(first + 1)...].firstIndex(of: UInt8(ascii: "."))
        else { return nil }
        return token[..<second]
    }

    /// A payload that accepts any object: the server's ``TokenClaims`` if they decode, and its `sub`,
    /// `iss` and `exp` if they have the right types.
    private struct Payload: JWTPayload {
        var claims: TokenClaims?
        var sub: String?
        var iss: String?
        var exp: Double?

        init(from decoder: any Decoder) throws {
            if let claims = try? TokenClaims(from: decoder) {
                self.claims = claims
                sub = claims.subject.value
                iss = claims.issuer?.value
                exp = claims.expiration.value.timeIntervalSince1970
                return
            }
            let container = try? decoder.container(keyedBy: ClaimKey.self)
            sub = try? container?.decodeIfPresent(String.self, forKey: ClaimKey("sub"))
            iss = try? container?.decodeIfPresent(String.self, forKey: ClaimKey("iss"))
            exp = try? container?.decodeIfPresent(Double.self, forKey: ClaimKey("exp"))
        }

        func encode(to encoder: any Encoder) throws {}
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

/// A token's claims with its signature and the bytes the signature covers, read but not yet checked.
struct SignedClaims: Equatable, Sendable {
    let claims: TokenClaims
    let signature: Data
    let signingInput: ArraySlice<UInt8>

    /// The claims, if `key` made the signature and they hold now (``TokenClaims/checkTimesAndSubject(now:)``):
    /// what jwt-kit's verification decides, for a token already read.
    func verified(by key: some JWTAlgorithm, now: Date = Date()) -> TokenClaims? {
        guard (try? key.verify(signature, signs: signingInput)) == true, (try? claims.checkTimesAndSubject(now: now)) != nil else {
            return nil
        }
        return claims
    }

    /// The claims follow from the bytes the signature covers.
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.signature == rhs.signature && lhs.signingInput == rhs.signingInput
    }
}
