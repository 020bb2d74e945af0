import Logging

extension TokenAuthority {
    /// The authority a server's configuration calls for, its key set read.
    ///
    /// A key-set file that cannot be read stops the start (a mistake of the one starting it); a key-set
    /// address that cannot be read is logged and read again when a token needs it, so a server starts
    /// without the internet.
    /// - Throws: ``TokenAuthorityError``.
    static func make(for configuration: ServerConfiguration, logger: Logger) async throws(TokenAuthorityError) -> TokenAuthority {
        var keySet: KeySet?
        if let source = configuration.auth.keySet {
            let set = KeySet(source: source, refreshInterval: configuration.auth.keySetRefreshInterval.wholeMilliseconds, logger: logger)
            do {
                try await set.load()
                let keys = await set.identifiers.sorted().joined(separator: ", ")
                logger.info("Read the key set \(source): keys \(keys).")
            } catch {
                guard case .address = source else { throw error }
                logger.warning("\(error) Tokens signed with its keys are refused until it can be read.")
            }
            keySet = set
        }
        return try await TokenAuthority(secret: configuration.auth.jwtSecret, keySet: keySet, rules: configuration.auth.tokenRules)
    }
}
