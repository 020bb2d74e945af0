extension ServerConfiguration {
    /// The server API for the app's backend (`/v1/server/`).
    public struct ServerAPI: Sendable {
        /// The API's key, at least 32 bytes; without one the API's routes do not exist.
        public var key: String?
        /// Requests allowed (all callers share the key). Default 100 a second, 500 at once.
        public var requests = RateBudget(rate: 100, burst: 500)
        /// The most bytes of a user or conversation id the API takes. Default 256.
        public var maxIDLength = 256

        /// The defaults.
        public init() {}
    }
}
