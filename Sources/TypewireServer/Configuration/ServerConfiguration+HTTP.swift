extension ServerConfiguration {
    /// Where the server listens and what its HTTP connections may send.
    public struct HTTP: Sendable {
        /// The address to listen on. Default `127.0.0.1`.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one. Default 8080.
        public var port = 8_080
        /// Browser origins allowed to open a socket (the `Origin` header, e.g. `https://chat.example`); empty
        /// allows every origin. Requests without a browser origin (apps and servers send none, or a ws:// one)
        /// are always allowed: the check protects users' tokens from foreign web pages.
        public var allowedOrigins: [String] = []
        /// The most bytes of a request's head (request line and headers); a larger one is answered 431 and
        /// the connection closed. Default 32 KiB.
        public var maxHeaderBytes = 32 * 1_024
        /// How long a new connection may take to send its first request head; past it the connection is
        /// closed. Default 10 s.
        public var headerTimeout = Duration.seconds(10)
        /// How long an HTTP connection may stay idle between requests. Default 60 s.
        public var idleTimeout = Duration.seconds(60)
        /// REST requests allowed per user; past it they are answered 429. Default 10 a second, 50 at once.
        public var requestsPerUser = RateBudget(rate: 10, burst: 50)
        /// The folder of the web demo's static files (HTML, CSS, JavaScript), served at `/`; a relative path
        /// is resolved against the current directory. Default `Public`. With ``ServerConfiguration/demo`` the
        /// folder must exist (the server refuses to start otherwise); without it, a missing folder just
        /// serves no files.
        public var publicDirectory = "Public"
        /// The key `/metrics` asks for (`Authorization: Bearer KEY`), at least 32 bytes. Default none: `/metrics`
        /// answers anyone who reaches the server, as Prometheus's scrapers expect, and the server listens on
        /// 127.0.0.1 unless told otherwise. A server on a public address should set one (its connection
        /// counts, webhook backlog and cluster state are for its operators).
        public var metricsKey: String?

        /// The defaults.
        public init() {}
    }
}
