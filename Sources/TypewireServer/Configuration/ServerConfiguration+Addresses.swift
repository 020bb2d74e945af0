extension ServerConfiguration {
    /// What one client address may cost before its connections are closed as soon as accepted.
    public struct Addresses: Sendable {
        /// Refused sockets one client address may cause (sockets closed before `welcome`, or for flooding)
        /// before its connections are closed as soon as accepted; it regains one a second. 0 counts none.
        /// Default 20 (``AddressRefusals``).
        public var refusals: Double = 20
        /// Connections one client address may have open that are not through their handshake: before their
        /// first request head is complete, and WebSockets before their `welcome`; past it the address's new
        /// connections are closed as soon as accepted, and its new WebSockets as soon as upgraded
        /// (``PendingHandshakes``). 0 counts none. Default 64.
        public var pendingConnections = 64
        /// Whether loopback and private addresses are counted too. Default false: a proxy or load balancer
        /// in front of the server connects from one, for all its clients.
        public var countsLocalAddresses = false

        /// The defaults.
        public init() {}
    }
}
