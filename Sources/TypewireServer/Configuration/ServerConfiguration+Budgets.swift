extension ServerConfiguration {
    /// Each socket's budgets (``InboundGate``), and the user's handshakes. Budgets whose excess is refused
    /// answer `rate_limited` with the frame's `ref` (the client sends it again); budgets whose excess is
    /// dropped tell the client once a second, and close the socket with 1008 past ``abuseThreshold``.
    public struct Budgets: Sendable {
        /// Frames of any kind per socket, after each kind's own budget; the only budget of stops,
        /// `unsubscribe`, a second `hello`, pings, pongs and fragments. The excess is dropped. Default 100 a
        /// second, 400 at once.
        public var frames = RateBudget(rate: 100, burst: 400)
        /// Activity starts and refreshes per socket; the excess is dropped. Default 10 a second, 20 at once.
        public var activity = RateBudget(rate: 10, burst: 20)
        /// Messages (`send`, `edit`, the final part of a `stream`) per socket; the excess is refused.
        /// Default 5 a second, 20 at once.
        public var messages = RateBudget(rate: 5, burst: 20)
        /// Parts of bots' streamed replies (`stream` frames before the final one) per socket: a reply
        /// streams faster than people write messages. The excess is refused and not fanned out; the reply is
        /// still stored whole at its end. Default 20 a second, 40 at once.
        public var replyParts = RateBudget(rate: 20, burst: 40)
        /// `read` frames per socket (each moves a watermark in the store); the excess is refused (the client
        /// sends its newest read again shortly: a later read covers the earlier ones). Default 2 a second,
        /// 10 at once.
        public var reads = RateBudget(rate: 2, burst: 10)
        /// `delivered` frames per socket (each moves a mark in the store; a client sends at most one a
        /// second per timeline it receives messages in); the excess is dropped (a later one covers it).
        /// Default 10 a second, 50 at once.
        public var deliveries = RateBudget(rate: 10, burst: 50)
        /// `subscribe` frames per socket; the excess is refused (the client subscribes again shortly).
        /// Default 10 a second, 100 at once (an app opening its conversations at launch).
        public var subscribes = RateBudget(rate: 10, burst: 100)
        /// Frames that cannot be read (not JSON, unknown type, bad fields) answered per socket; past it
        /// they are dropped unanswered. Default 10 a second, 100 at once.
        public var badFrames = RateBudget(rate: 10, burst: 100)
        /// Lookups of conversations that do not exist (or that the user is not in) per socket; past it such
        /// a frame is refused with `rate_limited` without asking the store. Default 1 a second, 20 at once.
        public var unknownConversations = RateBudget(rate: 1, burst: 20)
        /// Sockets one user may open (handshakes past `hello`'s token check); past it a `hello` is refused
        /// with `rate_limited` before its token is verified or the store read, and the socket closed with
        /// 1013 (the client connects again with its backoff). Default 5 a second, 50 at once (all of a
        /// user's devices and tabs reconnecting after a restart).
        public var handshakes = RateBudget(rate: 5, burst: 50)
        /// Frames dropped by one of a socket's budgets within a second after which the socket is closed
        /// with 1008: a flood, not a client a little over a budget. Default 500.
        public var abuseThreshold = 500

        /// The defaults.
        public init() {}
    }
}
