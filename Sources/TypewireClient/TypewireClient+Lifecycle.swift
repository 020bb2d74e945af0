import TypewireCore

// What an app does to its connection: background and foreground, a disconnect, a reconnect now, a sign-out,
// the network. Each is an event of the machine (``ClientConnectionStateMachine``).
extension TypewireClient {
    /// The app went to the background: the user stops typing everywhere at once, and after
    /// ``Configuration/backgroundGrace`` the socket closes with 1001 (going away), so the others see the
    /// user offline once the server's presence grace has run out too (rather than after its ping timeout,
    /// once the system has suspended the app). On iOS the grace runs in
    /// background time asked of the system, and the socket closes early if the system takes it back. Back
    /// in the foreground within the grace, nothing was closed. On iOS the client calls this itself
    /// (``Configuration/followsAppLifecycle``).
    public func enterBackground() {
        handle { $0.enterBackground(now: $1) }
    }

    /// The app came to the foreground: a socket closed for the background, ``disconnect()`` or refused
    /// tokens (``ConnectionState/failed(_:)``) connects again at once.
    public func enterForeground() {
        handle { $0.enterForeground(now: $1) }
    }

    /// The system takes the app's background time back: the socket closes now.
    func backgroundTimeExpiring() {
        handle { $0.backgroundTimeExpiring(now: $1) }
    }

    /// Closes the socket and connects no more until ``reconnectNow()`` or ``enterForeground()``: the others
    /// see the user offline. Open conversations and unsent messages are kept, and resumed on reconnect.
    public func disconnect() {
        handle { $0.disconnect(now: $1) }
    }

    /// Connects at once: after ``disconnect()``, after the client gave up authenticating
    /// (``ConnectionState/failed(_:)``; the app has a valid session again), after ``signOut()`` (another
    /// user signed in), or instead of waiting out the backoff after a drop. A connected client stays as it is.
    public func reconnectNow() {
        handle { $0.reconnectNow(now: $1) }
    }

    /// The user signed out: the socket closes, every send and edit still waiting fails with
    /// ``TypewireClientError/signedOut`` (none is ever sent as the next user), every handle ends, the
    /// outbox file is emptied and the user forgotten. Nothing connects until ``reconnectNow()``, when the
    /// token provider gives the next user's token.
    public func signOut() {
        handle { $0.signOut(now: $1) }
    }

    /// The device's network path was updated. While no path is satisfied the client waits (no token asked,
    /// nothing dialled), and connects at once when one is; a change of interface or gateway drops the
    /// socket (it may be dead without a word) once the path has been still for
    /// ``Configuration/networkPathSettle`` (1 s by default). On Apple platforms
    /// the client follows `NWPathMonitor` itself (``Configuration/followsNetworkPath``).
    public func networkPathUpdated(_ path: NetworkPath) {
        handle { $0.pathUpdated(path, now: $1) }
    }

    /// The device's network changed (another interface, or back after none), as the app knows: a socket
    /// on the old path may be dead without a word, so it is closed and the client connects again at once; a
    /// client waiting out its backoff connects at once.
    public func networkChanged() {
        handle { $0.networkChanged(now: $1) }
    }
}
