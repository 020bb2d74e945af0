import TypewireCore

// What an app does to its connection: background and foreground, a disconnect, a reconnect now.
extension TypewireClient {
    /// The app went to the background: the user stops typing everywhere at once, and after
    /// ``Configuration/backgroundGrace`` the socket closes, so the others see the user offline (rather than
    /// after the server's ping timeout, once the system has suspended the app). Back in the foreground
    /// within the grace, nothing was closed.
    public func enterBackground() {
        for timeline in activeIn { setActivity(.none, in: timeline) }
        for conversation in conversations.values {
            for composer in conversation.composers { composer.didEnterBackground() }
        }
        backgroundTimer?.cancel()
        let grace = configuration.backgroundGrace
        guard grace > .zero else { return disconnect() }
        backgroundTimer = Task { [weak self] in
            try? await Task.sleep(for: grace)
            guard !Task.isCancelled else { return }
            await self?.disconnect()
        }
    }

    /// The app came to the foreground: a socket closed for the background connects again at once.
    public func enterForeground() {
        backgroundTimer?.cancel()
        backgroundTimer = nil
        reconnectNow()
    }

    /// Closes the socket and connects no more until ``reconnectNow()`` or ``enterForeground()``: the others
    /// see the user offline. Open conversations and unsent messages are kept, and resumed on reconnect.
    public func disconnect() {
        backgroundTimer?.cancel()
        backgroundTimer = nil
        paused = true
        closeSocket()
        wakeUp()
    }

    /// Connects at once: after ``disconnect()``, after the client gave up authenticating
    /// (``ConnectionState/failed(_:)``; the app has a valid session again), or instead of waiting out the
    /// backoff after a drop (the network came back). A connected client stays as it is.
    public func reconnectNow() {
        paused = false
        forgetAuthenticationFailure()
        wakeUp()
    }

    /// The device's network path was updated: when the network comes back, or the preferred interface
    /// changes, the client connects again at once (``networkChanged()``); other updates change nothing.
    /// On Apple platforms the client follows `NWPathMonitor` itself (``Configuration/followsNetworkPath``).
    public func networkPathUpdated(_ path: NetworkPath) {
        if networkPath.update(path) { networkChanged() }
    }

    /// The device's network changed (another interface, or back after none): a socket on the old path may
    /// be dead without a word, so it is closed and the client connects again at once; a client waiting out
    /// its backoff connects at once.
    public func networkChanged() {
        guard !paused else { return }
        closeSocket()
        wakeUp()
    }
}
