import Foundation
import JWTKit
import Testing

@testable import TypewireServer

/// HS256 tokens are verified from the claims ``UncheckedToken`` read, without jwt-kit's key collection: these
/// are the tokens jwt-kit refuses, and they must still be refused.
@Suite("TokenAuthority: tokens signed with the secret")
struct TokenAuthorityTests {
    static let secret = "a-server-secret-of-at-least-thirty-two-bytes"

    /// Claims of any shape, signed with a secret.
    struct AnyClaims: JWTPayload {
        var sub: String?
        var exp: Double?
        var nbf: Double?
        var name: String?
        var role: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static func sign(
        _ claims: AnyClaims, secret: String = secret, digest: DigestAlgorithm = .sha256
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: digest)
        return try await keys.sign(claims)
    }

    static func inAMinute() -> Double { Date().timeIntervalSince1970 + 60 }

    @Test func aTokenSignedWithTheSecretNamesItsUserAndExpiry() async throws {
        let authority = try await TokenAuthority(secret: Self.secret)
        let expiry = Self.inAMinute().rounded(.down)
        let token = try await Self.sign(.init(sub: "ada", exp: expiry, name: "Ada", role: "bot"))
        let verified = try #require(await authority.verifyWithExpiry(token))
        #expect(verified.identity == Identity(userID: "ada", name: "Ada", isBot: true))
        #expect(verified.expiresAt.timeIntervalSince1970 == expiry)
        let minted = try await authority.sign(Identity(userID: "bo", name: nil))
        #expect(await authority.verify(minted)?.userID == "bo", "the authority's own tokens")
    }

    @Test func tokensJWTKitRefusesAreRefused() async throws {
        let authority = try await TokenAuthority(secret: Self.secret)
        let now = Date().timeIntervalSince1970
        let good = try await Self.sign(.init(sub: "ada", exp: Self.inAMinute()))
        #expect(await authority.verify(good) != nil, "the control token passes")

        let otherSecret = try await Self.sign(.init(sub: "ada", exp: Self.inAMinute()), secret: String(Self.secret.reversed()))
        #expect(await authority.verify(otherSecret) == nil, "signed with another secret")

        // The payload of one validly signed token under the signature of another.
        let mallory = try await Self.sign(.init(sub: "mallory", exp: Self.inAMinute()))
        let goodParts = good.split(separator: ".")
        let spliced = [goodParts[0], mallory.split(separator: ".")[1], goodParts[2]].joined(separator: ".")
        #expect(await authority.verify(spliced) == nil, "a payload the signature does not cover")

        #expect(await authority.verify(try await Self.sign(.init(sub: "ada", exp: now - 60))) == nil, "expired")
        #expect(
            await authority.verify(try await Self.sign(.init(sub: "ada", exp: Self.inAMinute(), nbf: now + 30))) == nil, "not yet valid")
        #expect(await authority.verify(try await Self.sign(.init(sub: "", exp: Self.inAMinute()))) == nil, "an empty subject")
        #expect(await authority.verify(try await Self.sign(.init(sub: "ada"))) == nil, "no expiry")
        #expect(await authority.verify(try await Self.sign(.init(exp: Self.inAMinute()))) == nil, "no subject")
        // HS384 wants a secret of 48 bytes or more: an authority with one, and a token signed with it.
        let longSecret = Self.secret + Self.secret
        let longAuthority = try await TokenAuthority(secret: longSecret)
        let hs384 = try await Self.sign(.init(sub: "ada", exp: Self.inAMinute()), secret: longSecret, digest: .sha384)
        #expect(await longAuthority.verify(hs384) == nil, "HS384 with the same secret: only HS256 is taken")
        let unsigned = [
            Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString(), String(goodParts[1]), "",
        ].joined(separator: ".")
        #expect(await authority.verify(unsigned) == nil, "alg none")
        #expect(await authority.verify(String(good.dropLast(2))) == nil, "a cut signature")
        #expect(await authority.verify(good + ".x") == nil, "four parts")
        #expect(await authority.verify("garbage") == nil)
    }

    @Test func aTokenThatClaimsToLiveLongerThanTheMaximumIsRefused() async throws {
        let authority = try await TokenAuthority(secret: Self.secret, keySet: nil, rules: TokenRules(maxLifetime: .seconds(3_600)))
        let now = Date().timeIntervalSince1970
        #expect(await authority.verify(try await Self.sign(.init(sub: "ada", exp: now + 3_000))) != nil, "inside the maximum")
        #expect(await authority.verify(try await Self.sign(.init(sub: "ada", exp: now + 4_000))) == nil, "past the maximum")
        // `exp` a million years ahead, and a Double past any Int64 of milliseconds.
        for exp in [now + 3.2e13, 1e300] {
            #expect(await authority.verify(try await Self.sign(.init(sub: "ada", exp: exp))) == nil, "exp \(exp)")
        }
        await #expect(throws: TokenAuthorityError.self) {
            try await authority.sign(Identity(userID: "ada", name: nil), lifetime: .seconds(3_601))
        }
    }

    @Test func theClaimsAreReadOnceAndKeptWithWhatTheSignatureCovers() async throws {
        let token = try await Self.sign(.init(sub: "ada", exp: Self.inAMinute()))
        let unchecked = try #require(UncheckedToken(of: token))
        #expect(unchecked.algorithm == "HS256")
        #expect(unchecked.subject == "ada")
        let signed = try #require(unchecked.signed)
        #expect(signed.claims.subject.value == "ada")
        #expect(String(decoding: signed.signingInput, as: UTF8.self) == token.split(separator: ".").prefix(2).joined(separator: "."))

        let noExpiry = try #require(UncheckedToken(of: try await Self.sign(.init(sub: "ada"))))
        #expect(noExpiry.subject == "ada", "the subject is still read, to charge its handshake budget")
        #expect(noExpiry.signed == nil, "claims the server cannot take keep nothing to verify")
    }
}
