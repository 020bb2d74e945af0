/// How often each user may open a socket: a token bucket per user, so that one user reconnecting in a loop
/// costs a refusal, not the store reads and presence of a handshake each time. Shared by the hub, which takes
/// a handshake of a user's budget for each verified `hello` it registers, and the sockets, which turn away a
/// `hello` whose user's budget is spent before its token is verified (an unverified claim can only be refused
/// early, never charged).
typealias HandshakeBudgets = SharedRateLimiters<String>
