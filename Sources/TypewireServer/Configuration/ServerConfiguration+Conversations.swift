extension ServerConfiguration {
    /// Conversations' sizes and how fast users create them.
    public struct Conversations: Sendable {
        /// Conversations one user may create per minute; past it `POST /v1/conversations` answers 429.
        /// Default 30.
        public var createdPerMinute = 30
        /// The most participants a conversation may have (its creator included). Default 1 000.
        public var maxMembers = 1_000
        /// The largest group whose read receipts name their readers (`reads`); a larger one's carry how many
        /// read each of the newest messages instead (`readCounts`), read from the store at most once a second.
        /// Default 50.
        public var maxNamedReaders = 50
        /// The longest conversation title, in characters. Default 200.
        public var maxTitleLength = 200
        /// The most users one user may block; past it `PUT /v1/blocks/:user` answers 409. Default 10 000
        /// (a handshake reads them all).
        public var maxBlocksPerUser = 10_000

        /// The defaults.
        public init() {}
    }
}
