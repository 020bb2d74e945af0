import Foundation
import Hummingbird
import JWTKit
import Logging
import Testing
import TypewireCore
import TypewireServer
import TypewireTesting

/// Tokens from an identity provider (RS256 and ES256 against its key set, served on 127.0.0.1), with
/// the provider's claims, a rotated key, and the tokens that must be refused.
@Suite("Tokens verified with an identity provider's key set", .timeLimit(.minutes(1)))
struct KeySetTokenTests {
    static let rules = TokenRules(issuer: IdentityProvider.issuer, audience: IdentityProvider.audience)

    private static func authority(_ address: String, clock: ManualClock, secret: String? = nil, rules: TokenRules = rules) async throws -> (
        TokenAuthority, KeySet
    ) {
        let set = KeySet(source: try KeySetSource(parsing: address), refreshInterval: 60_000, now: { clock.now })
        try await set.load()
        return (try await TokenAuthority(secret: secret, keySet: set, rules: rules), set)
    }

    @Test func rs256AndES256TokensFromTheKeySetAreAccepted() async throws {
        let provider = IdentityProvider()
        try await provider.addRSAKey("rsa-1")
        try await provider.addECKey("ec-1")
        provider.publish(["rsa-1", "ec-1"])
        try await provider.serve { address in
            let (authority, _) = try await Self.authority(address, clock: ManualClock())
            let rsa = try #require(await authority.verify(try await provider.token(kid: "rsa-1")))
            #expect(rsa == Identity(userID: "ada", name: "Ada", isBot: false))
            let ec = try #require(await authority.verify(try await provider.token(kid: "ec-1", user: "grace", name: "Grace")))
            #expect(ec.userID == "grace" && ec.name == "Grace")
        }
    }

    @Test func theNameAndBotClaimsAreTheConfiguredOnes() async throws {
        let provider = IdentityProvider()
        try await provider.addRSAKey("rsa-1")
        provider.publish(["rsa-1"])
        try await provider.serve { address in
            var rules = Self.rules
            rules.nameClaim = "displayName"
            rules.botClaim = "bot"
            let (authority, _) = try await Self.authority(address, clock: ManualClock(), rules: rules)
            let token = try await provider.token(kid: "rsa-1", user: "helper", name: "ignored", displayName: "Helper", bot: true)
            #expect(await authority.verify(token) == Identity(userID: "helper", name: "Helper", isBot: true))
        }
    }

    @Test func aRotatedKeyWorksAfterTheRefreshAndTheSetIsReadAtMostOncePerInterval() async throws {
        let provider = IdentityProvider()
        try await provider.addRSAKey("rsa-1")
        try await provider.addRSAKey("rsa-2")
        provider.publish(["rsa-1"])
        try await provider.serve { address in
            let clock = ManualClock()
            let (authority, set) = try await Self.authority(address, clock: clock)
            #expect(provider.reads == 1)
            provider.publish(["rsa-1", "rsa-2"])  // the provider rotates: a new key beside the old
            clock.advance(by: 60_000)
            let rotated = try await provider.token(kid: "rsa-2")
            #expect(await authority.verify(rotated)?.userID == "ada", "a token with the new kid is verified after one read")
            let identifiers = await set.identifiers
            #expect(provider.reads == 2 && identifiers == ["rsa-1", "rsa-2"])

            // A token naming a key that nobody publishes: one read, then none within the interval.
            clock.advance(by: 60_000)
            try await provider.addRSAKey("rsa-3")
            let unpublished = try await provider.token(kid: "rsa-3")
            #expect(await authority.verify(unpublished) == nil)
            #expect(provider.reads == 3)
            for _ in 0..<20 { #expect(await authority.verify(unpublished) == nil) }
            #expect(provider.reads == 3, "unknown keys cause at most one read a minute")
            #expect(await authority.verify(rotated) != nil, "known keys still work meanwhile")
        }
    }

    @Test func onlyATokenThatCouldBeValidCausesAReadAndAProbeCannotHideANewKeyForLong() async throws {
        let provider = IdentityProvider()
        for kid in ["rsa-1", "rsa-2", "probe"] { try await provider.addRSAKey(kid) }
        provider.publish(["rsa-1"])
        try await provider.serve { address in
            let clock = ManualClock()
            let (authority, _) = try await Self.authority(address, clock: clock)
            clock.advance(by: 60_000)
            // Tokens naming unknown keys that could not be valid cause no read: another issuer, or expired.
            #expect(await authority.verify(try await provider.token(kid: "probe", issuer: "https://elsewhere.example")) == nil)
            #expect(await authority.verify(try await provider.token(kid: "probe", lifetime: -60)) == nil)
            #expect(provider.reads == 1)
            // A probe that could be valid causes one read; the same key id causes none within the minute.
            let probe = try await provider.token(kid: "probe")
            #expect(await authority.verify(probe) == nil)
            #expect(provider.reads == 2)
            clock.advance(by: 10_000)
            #expect(await authority.verify(probe) == nil)
            #expect(provider.reads == 2)
            // The provider publishes a new key a second after a probe: it is found within seconds, not a minute.
            let rotated = try await provider.token(kid: "rsa-2")
            _ = await authority.verify(try await provider.token(kid: "probe-2"))  // another made-up key: a read
            #expect(provider.reads == 3)
            provider.publish(["rsa-1", "rsa-2"])
            clock.advance(by: 1_000)
            #expect(await authority.verify(rotated) == nil, "within 5 s of the last read: no read yet")
            #expect(provider.reads == 3)
            clock.advance(by: 4_000)
            #expect(await authority.verify(rotated)?.userID == "ada", "5 s after the probe's read, the new key is read and used")
            #expect(provider.reads == 4)
        }
    }

    @Test func tokensThatMustBeRefusedAre() async throws {
        let provider = IdentityProvider()
        try await provider.addRSAKey("rsa-1")
        provider.publish(["rsa-1"])
        try await provider.serve { address in
            let secret = "a-server-secret-of-at-least-thirty-two-bytes"
            let (authority, _) = try await Self.authority(address, clock: ManualClock(), secret: secret)
            #expect(await authority.verify(try await provider.token(kid: "rsa-1")) != nil, "the control token passes")
            #expect(
                await authority.verify(try await provider.token(kid: "rsa-1", issuer: "https://elsewhere.example")) == nil, "wrong issuer")
            #expect(await authority.verify(try await provider.token(kid: "rsa-1", issuer: nil)) == nil, "no issuer")
            #expect(await authority.verify(try await provider.token(kid: "rsa-1", audience: "another-app")) == nil, "wrong audience")
            #expect(await authority.verify(try await provider.token(kid: "rsa-1", lifetime: -60)) == nil, "expired")

            // alg confusion: an HS256 token whose HMAC secret is the RSA public key, naming its kid.
            let pem = try #require(provider.rsaPublicPEM.withLockedValue { $0["rsa-1"] })
            let forger = JWTKeyCollection()
            await forger.add(hmac: HMACKey(from: pem), digestAlgorithm: .sha256, kid: "rsa-1")
            let claims = IdentityProvider.Claims(
                sub: .init(value: "mallory"), exp: .init(value: Date().addingTimeInterval(600)),
                iss: .init(value: IdentityProvider.issuer), aud: .init(value: [IdentityProvider.audience])
            )
            #expect(await authority.verify(try await forger.sign(claims, kid: "rsa-1")) == nil, "HS256 keyed with the public key")
            #expect(await authority.verify(try await provider.tokenNamingNoKey()) == nil, "signed with rsa-1 but naming no kid")
            // The server's own HS256 tokens must meet the same rules.
            let own = try await TokenAuthority(secret: secret).sign(Identity(userID: "ada", name: nil))
            #expect(await authority.verify(own) == nil, "an HS256 token without the provider's issuer and audience")
        }
    }

    @Test func aKeySetOverPlainHTTPOffLoopbackIsRefused() throws {
        #expect(throws: TokenAuthorityError.self) { try KeySetSource(parsing: "http://keys.example.com/jwks.json") }
        #expect(
            try KeySetSource(parsing: "https://keys.example.com/jwks.json") == .address(URL(string: "https://keys.example.com/jwks.json")!))
        #expect(try KeySetSource(parsing: "http://127.0.0.1:9/jwks.json") == .address(URL(string: "http://127.0.0.1:9/jwks.json")!))
        #expect(try KeySetSource(parsing: "keys/jwks.json") == .file("keys/jwks.json"))
    }

    /// An address answering more than a key set's bound is refused, and one that is not found says its status.
    @Test func aKeySetAddressAnsweringTooMuchOrNothingIsRefusedSayingWhy() async throws {
        let router = Router()
        router.get("huge.json") { _, _ -> Response in
            let body = String(repeating: " ", count: 4 << 20)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(string: body)))
        }
        try await serveOnLoopback(router, label: "typewire.test.huge-jwks") { port in
            let clock = ManualClock()
            for (path, said) in [("huge.json", "is over \(1 << 20) bytes"), ("missing.json", "HTTP status 404")] {
                let set = KeySet(
                    source: try KeySetSource(parsing: "http://127.0.0.1:\(port)/\(path)"), refreshInterval: 60_000, now: { clock.now })
                await #expect(throws: TokenAuthorityError.self, "\(path)") { try await set.load() }
                do {
                    try await set.load()
                } catch {
                    #expect("\(error)".contains(said), "\(error)")
                }
            }
        }
    }

    @Test func aServerWithOnlyAKeySetTakesTheProvidersTokensOnItsSocket() async throws {
        let provider = IdentityProvider()
        try await provider.addECKey("ec-1")
        provider.publish(["ec-1"])
        try await provider.serve { address in
            try await TestServer.run(configure: {
                $0.auth.jwtSecret = nil
                $0.auth.keySet = try? KeySetSource(parsing: address)
                $0.auth.tokenRules = Self.rules
            }) { server in
                let alice = try await TestSocket.connect(
                    port: server.port, token: try await provider.token(kid: "ec-1", user: "alice", name: "Alice"))
                alice.send(.subscribe(.init(conversation: "direct-alice-bob")))
                try await alice.next { if case .subscribed = $0 { true } else { false } }
                let stranger = try await TestSocket.connect(port: server.port, token: nil)
                stranger.send(.hello(.init(token: try await server.token("alice"))))  // HS256: this server has no secret
                #expect(try await stranger.error().code == .unauthorized)
            }
        }
    }
}
