extension ServerConfiguration {
    /// Checks every value the server cannot run with, naming each by its `typewire serve` flag and its bounds.
    /// ``TypewireApplication/make(configuration:store:logger:cluster:onServerRunning:)`` calls it, so a server
    /// built in code is stopped where `typewire serve` is (a zero ping interval would ping in a tight loop).
    /// - Throws: ``ConfigurationError`` saying what to change.
    public func validate() throws {
        func require(_ holds: Bool, _ message: @autoclosure () -> String) throws {
            guard holds else { throw ConfigurationError(message: message()) }
        }
        try require((threads ?? 1) >= 1, "--threads must be at least 1.")
        try require(typing.activityTTL > .zero, "--activity-ttl must be positive.")
        let idle = Duration.milliseconds(500)...Duration.seconds(60)
        try require(idle.contains(typing.idleTimeout), "--idle-timeout must be 500 to 60000 milliseconds.")
        try require(sockets.pingInterval > .zero, "--ping-interval must be positive.")
        try require(sockets.closeTimeout > .zero, "--close-timeout must be positive.")
        try require(http.headerTimeout > .zero, "--header-timeout must be positive.")
        let grace = Duration.zero...Duration.seconds(60)
        try require(grace.contains(sockets.presenceGrace), "--presence-grace must be 0 to 60000 milliseconds.")
        try require(sockets.maxQueuedBytes >= 64 * 1_024, "--max-queued-bytes must be at least 65536.")
        try require(messages.replyTimeout > .zero, "messages.replyTimeout must be positive.")
        try require(grace.contains(messages.stopGrace), "messages.stopGrace must be 0 to 60 seconds.")
        try require(budgets.activity.rate > 0, "--activity-rate must be positive.")
        try require(budgets.messages.rate > 0, "--message-rate must be positive.")
        try require(budgets.replyParts.rate > 0, "--reply-part-rate must be positive.")
        try require(budgets.handshakes.rate > 0, "--handshake-rate must be positive.")
        try require(budgets.reads.rate > 0, "budgets.reads.rate must be positive.")
        try require(budgets.deliveries.rate > 0, "budgets.deliveries.rate must be positive.")
        try require(conversations.maxNamedReaders >= 0, "conversations.maxNamedReaders must be 0 or more.")
        try require(budgets.handshakes.burst >= 1, "--handshake-burst must be at least 1.")
        try require(addresses.refusals >= 0, "--refusals-per-address must be 0 or more.")
        try require(addresses.pendingConnections >= 0, "--pending-connections-per-address must be 0 or more.")
        try require(auth.tokenRules.maxLifetime >= .seconds(1), "--jwt-max-lifetime must be at least 1 second.")
        try require(
            (auth.clusterSecret?.utf8.count ?? 32) >= 32,
            "--cluster-secret must be at least 32 bytes: the nodes' events are sealed with keys drawn from it. Give every node the same random secret."
        )
        try webhooks.validate()
    }
}
