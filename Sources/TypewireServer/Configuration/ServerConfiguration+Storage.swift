extension ServerConfiguration {
    /// Where the store lives and what it keeps.
    public struct Storage: Sendable {
        /// The SQLite file of a single node. Default `./typewire.sqlite`.
        public var sqlitePath = "./typewire.sqlite"
        /// Whether the server keeps messages. False is typing-only mode (`--no-messages`), for apps that keep
        /// their messages elsewhere: `send`, `edit` and `stream` are refused with `messages_disabled`, and
        /// nothing is stored but users, conversations, participants, settings and blocks. Default true.
        public var storesMessages = true

        /// The defaults.
        public init() {}
    }
}
