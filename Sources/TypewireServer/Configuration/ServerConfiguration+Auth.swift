extension ServerConfiguration {
    /// How tokens are verified, and the secret of a cluster's bus.
    public struct Auth: Sendable {
        /// The HS256 secret that signs and verifies tokens, if such tokens are accepted. A server needs it, a
        /// ``keySet``, or both.
        public var jwtSecret: String?
        /// The identity provider's JSON Web Key Set that RS256 and ES256 tokens are verified with, if any.
        public var keySet: KeySetSource?
        /// How long a key id that a token named and the key set did not have is not looked for again (any
        /// two reads for unknown keys are at least 5 s apart, ``KeySet``). Default 60 s.
        public var keySetRefreshInterval = Duration.seconds(60)
        /// What every token must say (issuer, audience) and where its name and bot flag are.
        public var tokenRules = TokenRules()
        /// The secret the nodes of a cluster sign their bus events with; default ``jwtSecret``. A cluster of
        /// nodes that verify tokens with a key set alone needs it.
        public var clusterSecret: String?

        /// The defaults, with the HS256 secret if there is one.
        public init(jwtSecret: String?) {
            self.jwtSecret = jwtSecret
        }
    }
}
