import Foundation
import JWTKit

/// Signs and verifies HS256 tokens with one secret. Tokens with `alg` none, another algorithm, a wrong
/// signature or a past `exp` are refused.
public struct TokenAuthority: Sendable {
    private let keys: JWTKeyCollection

    /// The shortest secret accepted, in bytes: HS256 wants a key at least as long as its hash.
    public static let minimumSecretLength = 32

    /// Creates an authority for a secret.
    /// - Throws: ``TokenAuthorityError`` if the secret is shorter than ``minimumSecretLength`` bytes.
    public init(secret: String) async throws(TokenAuthorityError) {
        guard secret.utf8.count >= Self.minimumSecretLength else { throw .secretTooShort(secret.utf8.count) }
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.keys = keys
    }

    /// The identity a token names, or nil if the token is not valid.
    public func verify(_ token: String) async -> Identity? {
        await verifyWithExpiry(token)?.identity
    }

    /// The identity a token names and when the token expires, or nil if the token is not valid.
    public func verifyWithExpiry(_ token: String) async -> (identity: Identity, expiresAt: Date)? {
        guard let claims = try? await keys.verify(token, as: TypewireClaims.self) else { return nil }
        return (Identity(userID: claims.sub.value, name: claims.name, isBot: claims.role == "bot"), claims.exp.value)
    }

    /// Mints a token.
    /// - Parameters:
    ///   - identity: Who the token names.
    ///   - lifetime: How long it is valid.
    public func sign(_ identity: Identity, lifetime: Duration = .seconds(86_400)) async throws -> String {
        let seconds = Double(lifetime.components.seconds)
        let claims = TypewireClaims(
            sub: .init(value: identity.userID), name: identity.name,
            exp: .init(value: Date().addingTimeInterval(seconds)), role: identity.isBot ? "bot" : nil
        )
        return try await keys.sign(claims)
    }
}

/// Why a token authority could not be made.
public struct TokenAuthorityError: Error, CustomStringConvertible {
    private let message: String

    static func secretTooShort(_ length: Int) -> TokenAuthorityError {
        TokenAuthorityError(
            message: "The JWT secret has \(length) bytes; HS256 needs at least \(TokenAuthority.minimumSecretLength). Use a longer random secret, e.g. `openssl rand -hex 32`."
        )
    }

    public var description: String { message }
}
