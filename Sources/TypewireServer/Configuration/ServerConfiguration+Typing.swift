extension ServerConfiguration {
    /// How activity lives and is fanned out.
    public struct Typing: Sendable {
        /// How long an activity lives after its last frame. Default 4.8 s (docs/FIDELITY.md).
        public var activityTTL = Duration.milliseconds(4_800)
        /// The sender's refresh interval told to clients. Default 2 s.
        public var refreshInterval = Duration.seconds(2)
        /// The sender's idle timeout told to clients. Default 3 s.
        public var idleTimeout = Duration.seconds(3)
        /// The most entries one `activity` update lists (the first to start); its `total` counts them all.
        /// Default 10.
        public var maxEntries = 10
        /// The longest `detail` of an activity (a tool's name), in bytes of UTF-8; every subscriber gets it
        /// on every refresh, on every node. Default 64.
        public var maxDetailBytes = 64
        /// Subscribers from which a conversation is a large group: its `activity` updates are paced to one
        /// per ``largeGroupInterval``, changes in between coalesced into the next one. Default 100.
        public var largeGroupSize = 100
        /// The shortest time between two `activity` updates of a large group. Default 100 ms.
        public var largeGroupInterval = Duration.milliseconds(100)
        /// The most `activity` frames one large group's updates may take a second, over all its
        /// subscribers: a larger group gets its updates further apart (5 000 subscribers: one per 500 ms).
        /// Default 10 000.
        public var largeGroupDeliveries = 10_000

        /// The defaults.
        public init() {}
    }
}
