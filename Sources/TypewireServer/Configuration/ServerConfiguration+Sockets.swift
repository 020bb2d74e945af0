extension ServerConfiguration {
    /// The life of a socket: its timeouts and what it may hold.
    public struct Sockets: Sendable {
        /// How long a socket may take to send a valid `hello`. Default 5 s.
        public var helloTimeout = Duration.seconds(5)
        /// How often the server pings each socket; a peer that does not answer before the next ping is
        /// closed as dead. Default 30 s.
        public var pingInterval = Duration.seconds(30)
        /// How long a socket the server closes waits for the peer's close frame; then the connection is
        /// dropped. It bounds how long a peer that never answers holds a shutdown. Default 3 s.
        public var closeTimeout = Duration.seconds(3)
        /// How long a user whose last socket closed with 1001 (going away: the client's app went to the
        /// background, a page was left or reloaded) still shows online, so that a quick switch to another
        /// app and back does not blink them offline to others; a socket of theirs back within it shows
        /// nothing. Their typing clears at once all the same, and a new message's webhook counts them
        /// offline at once (a push must not wait). Zero: offline at once. Default 5 s.
        public var presenceGrace = Duration.seconds(5)
        /// The largest frame accepted, in bytes. Default 16 KiB.
        public var maxFrameSize = 16_384
        /// Bytes of frames queued for one socket that it has not read yet (their buffers included,
        /// ``SentBytes``); a socket whose queue would grow past it is closed with 1001 (it reconnects and
        /// resyncs), so a client that stops reading cannot make the server buffer without limit. Default 4 MiB.
        public var maxQueuedBytes = 4 << 20
        /// Sockets one user may have open at once (devices and tabs); a hello past it is refused and the
        /// socket closed with 1008. Default 100.
        public var maxPerUser = 100
        /// Conversations one socket may follow at once; a subscribe past it is refused with `forbidden`.
        /// Default 1 000.
        public var maxSubscriptions = 1_000

        /// The largest frame the WebSocket layer reads once a socket has said hello: four times
        /// ``maxFrameSize``, at least 64 KiB. A frame between the two is answered with `too_large` and the
        /// socket kept; past it the socket is closed (1009).
        public var frameLimit: Int { max(4 * maxFrameSize, 64 * 1_024) }

        /// The defaults.
        public init() {}
    }
}
