/// Why a token authority or its key set could not be made, with what to do about it.
public struct TokenAuthorityError: Error, CustomStringConvertible {
    private let message: String

    public var description: String { message }

    static func secretTooShort(_ length: Int) -> TokenAuthorityError {
        TokenAuthorityError(
            message:
                "The JWT secret has \(length) bytes; HS256 needs at least \(TokenAuthority.minimumSecretLength). Use a longer random secret, e.g. `openssl rand -hex 32`."
        )
    }

    static let noKeys = TokenAuthorityError(
        message: "No way to verify tokens: pass --jwt-secret (HS256), --jwks (an identity provider's key set), or both."
    )

    static let noSecretToSign = TokenAuthorityError(
        message: "This server has no --jwt-secret, so it cannot sign tokens; tokens come from the identity provider."
    )

    static func lifetimeTooLong(_ lifetime: Duration, max: Duration) -> TokenAuthorityError {
        TokenAuthorityError(
            message:
                "A token's lifetime of \(lifetime.components.seconds) s is over the \(max.components.seconds) s a server accepts (--jwt-max-lifetime): it would refuse the token."
        )
    }

    static func badKeySetAddress(_ text: String) -> TokenAuthorityError {
        TokenAuthorityError(message: "--jwks '\(text.prefix(200))' is not a valid address.")
    }

    static func plainHTTPKeySet(_ text: String) -> TokenAuthorityError {
        TokenAuthorityError(
            message: "--jwks '\(text.prefix(200))' uses plain http off loopback, where anyone on the way could swap the keys: use https."
        )
    }

    static func keySetUnreadable(_ source: String, _ reason: String) -> TokenAuthorityError {
        TokenAuthorityError(message: "Cannot read the key set '\(source.prefix(200))': \(reason).")
    }

    static func keySetTooLarge(_ source: String) -> TokenAuthorityError {
        TokenAuthorityError(message: "The key set '\(source.prefix(200))' is over \(KeySetSource.maxBytes) bytes; a key set is a few KiB.")
    }

    static func keySetNotJSON(_ source: String) -> TokenAuthorityError {
        TokenAuthorityError(
            message:
                "The key set '\(source.prefix(200))' is not a JSON Web Key Set ({\"keys\": [...]}); check the address (Firebase's is in docs/INTEGRATION.md)."
        )
    }

    static func keySetWithoutKeys(_ source: String) -> TokenAuthorityError {
        TokenAuthorityError(
            message: "The key set '\(source.prefix(200))' has no RSA or EC key with a \"kid\", so no token could be verified.")
    }
}
