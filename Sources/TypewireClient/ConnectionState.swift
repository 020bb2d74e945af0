/// Where a client's connection stands.
public enum ConnectionState: Hashable, Sendable {
    /// Opening the socket or waiting for `welcome`.
    case connecting
    /// Said hello and got `welcome`: frames flow.
    case connected
    /// The socket dropped; the client waits `retryIn` before it tries again.
    case waitingToReconnect(retryIn: Duration)
    /// The app asked for no connection (``TypewireClient/disconnect()``, or the background's grace ran out):
    /// nothing is connected until ``TypewireClient/reconnectNow()`` or ``TypewireClient/enterForeground()``.
    case paused
    /// The client gave up connecting: the server refused its token
    /// ``TypewireClient/Configuration/authenticationAttempts`` times in a row (a token provider that throws
    /// is asked again after the backoff, for ever). Nothing is tried again until
    /// ``TypewireClient/reconnectNow()`` (once the app has a valid session again).
    case failed(TypewireClientError)
    /// No network path reaches anything: nothing is tried until one does (then the client connects at once).
    case offline
    /// The user signed out (``TypewireClient/signOut()``): nothing is connected until
    /// ``TypewireClient/reconnectNow()`` (another user signed in; the token provider gives their token).
    case signedOut
    /// The client stopped (its `run()` ended).
    case stopped
}
