import Atomics
import Foundation
import Hummingbird
import JWTKit
import Logging
import NIOConcurrencyHelpers
import _CryptoExtras

/// A stand-in for an identity provider such as Firebase Authentication: RSA and EC keys, their public
/// key set served over real HTTP on 127.0.0.1, and RS256 or ES256 tokens signed with them.
final class IdentityProvider: Sendable {
    static let issuer = "https://securetoken.example.test/typewire-tests"
    static let audience = "typewire-tests"

    /// The claims an identity provider puts in its tokens.
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        var iss: IssuerClaim?
        var aud: AudienceClaim?
        var name: String?
        var displayName: String?
        var bot: Bool?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private let signers = JWTKeyCollection()
    private let publicKeys: NIOLockedValueBox<[String: [String: String]]> = NIOLockedValueBox([:])
    private let published: NIOLockedValueBox<[String]> = NIOLockedValueBox([])
    private let readCount = ManagedAtomic<Int>(0)

    /// The RSA public key of `kid` in PEM form (for the `alg` confusion attack).
    let rsaPublicPEM: NIOLockedValueBox<[String: String]> = NIOLockedValueBox([:])

    /// Makes an RSA key (RS256) named `kid`; it is published only once ``publish(_:)`` names it.
    func addRSAKey(_ kid: String) async throws {
        let key = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        await signers.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        let primitives = try key.publicKey.getKeyPrimitives()
        publicKeys.withLockedValue {
            $0[kid] = [
                "kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
                "n": Self.base64URL(primitives.modulus), "e": Self.base64URL(primitives.publicExponent),
            ]
        }
        rsaPublicPEM.withLockedValue { $0[kid] = key.publicKey.pemRepresentation }
    }

    /// Makes an EC P-256 key (ES256) named `kid`.
    func addECKey(_ kid: String) async throws {
        let key = ES256PrivateKey()
        await signers.add(ecdsa: key, kid: JWKIdentifier(string: kid))
        guard let parameters = key.publicKey.parameters else { throw ProviderError() }
        publicKeys.withLockedValue {
            $0[kid] = ["kty": "EC", "kid": kid, "use": "sig", "alg": "ES256", "crv": "P-256", "x": parameters.x, "y": parameters.y]
        }
    }

    /// Which keys the served set holds from now on.
    func publish(_ kids: [String]) { published.withLockedValue { $0 = kids } }

    /// How many times the key set was fetched.
    var reads: Int { readCount.load(ordering: .relaxed) }

    /// The key set as JSON.
    var keySetJSON: String {
        let keys = published.withLockedValue { kids in publicKeys.withLockedValue { all in kids.compactMap { all[$0] } } }
        let data = try! JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A token signed with the key `kid`.
    func token(
        kid: String, user: String = "ada", name: String? = "Ada", lifetime: TimeInterval = 3_600,
        issuer: String? = IdentityProvider.issuer, audience: String? = IdentityProvider.audience,
        displayName: String? = nil, bot: Bool? = nil
    ) async throws -> String {
        let claims = Claims(
            sub: .init(value: user), exp: .init(value: Date().addingTimeInterval(lifetime)), iss: issuer.map { .init(value: $0) },
            aud: audience.map { .init(value: [$0]) }, name: name, displayName: displayName, bot: bot
        )
        return try await signers.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// A token signed with the first key made, whose header names no `kid`.
    func tokenNamingNoKey() async throws -> String {
        try await signers.sign(
            Claims(
                sub: .init(value: "ada"), exp: .init(value: Date().addingTimeInterval(600)),
                iss: .init(value: Self.issuer), aud: .init(value: [Self.audience])
            ))
    }

    /// Serves the key set at `http://127.0.0.1:PORT/jwks.json` for the body's duration.
    func serve(_ body: (_ address: String) async throws -> Void) async throws {
        let router = Router()
        router.get("jwks.json") { _, _ -> Response in
            self.readCount.wrappingIncrement(ordering: .relaxed)
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(string: self.keySetJSON)))
        }
        try await serveOnLoopback(router, label: "typewire.test.jwks") { port in try await body("http://127.0.0.1:\(port)/jwks.json") }
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    struct ProviderError: Error {}
}
