/// Why the client asks the app's token provider for a token: the provider passes
/// ``isAfterRefusal`` on to its identity SDK, so a token the server refused is never handed out again
/// from a cache (Firebase: `user.getIDTokenResult(forcingRefresh: request.isAfterRefusal)`).
public struct TokenRequest: Sendable, Hashable {
    /// Why a token is asked for.
    public enum Reason: Sendable, Hashable {
        /// A new connection.
        case connect
        /// The live socket's token is close to its expiry: a fresh one goes to the server in a `refresh`.
        case refresh
        /// The server refused the last token given (`unauthorized`): a revoked session, a clock far off, a
        /// token cached past its life. Ask the identity provider for a new one, not the cache.
        case refused
    }

    /// Why a token is asked for.
    public var reason: Reason

    /// Whether the server refused the previous token: the provider should bypass its cache.
    public var isAfterRefusal: Bool { reason == .refused }

    /// A request for this reason.
    public init(reason: Reason) {
        self.reason = reason
    }
}
