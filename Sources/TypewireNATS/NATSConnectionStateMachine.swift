/// The decisions of one connection to a NATS server, as a value (postgres-nio's shape): what the server
/// sent and the timers go in, what to do comes out, and ``NATSChannelHandler`` does it.
///
/// The handshake: the server's `INFO`, then (when either side requires it) TLS, then the client's `CONNECT`
/// and `PING`; the `PONG` that answers says the credentials were taken (a refusal comes as `-ERR` before it). Then messages flow, the server's pings
/// are answered, and the client's own pings find a server that went silent.
public struct NATSConnectionStateMachine: Sendable {
    enum State: Equatable, Sendable {
        case awaitingInfo
        case awaitingTLS(NATSServerInfo)
        case awaitingPong(NATSServerInfo)
        case ready(NATSServerInfo)
        case closed
    }

    /// What to do.
    public enum Action: Equatable, Sendable {
        case none
        /// Put TLS in front of the connection; ``NATSConnectionStateMachine/tlsEstablished()`` follows.
        case startTLS
        /// Write `CONNECT` and `PING`.
        case sendConnect
        /// Answer the server's ping.
        case sendPong
        /// Ping the server.
        case sendPing
        /// The handshake is done: send the subscriptions and what waits, start pinging.
        case ready(NATSServerInfo)
        /// The server described itself again (its cluster changed, or it is going away).
        case updateInfo(NATSServerInfo)
        /// Hand a message to its subscription.
        case deliver(NATSMessage)
        /// An error the server reported without closing (a refused subject); log it.
        case report(String)
        /// Close the connection for this reason.
        case close(NATSProtocolError)
    }

    private(set) var state = State.awaitingInfo
    private var pingsOutstanding = 0
    /// Pings without an answer after which the connection counts as dead.
    let maxPingsOutstanding: Int
    /// Whether this side requires TLS (a `tls://` address).
    let requiresTLS: Bool

    /// A machine for a new connection.
    public init(maxPingsOutstanding: Int = 2, requiresTLS: Bool = false) {
        self.maxPingsOutstanding = maxPingsOutstanding
        self.requiresTLS = requiresTLS
    }

    /// Whether the handshake is done and the connection not closed.
    public var isReady: Bool {
        if case .ready = state { true } else { false }
    }

    /// The server sent something.
    public mutating func received(_ message: NATSServerMessage) -> Action {
        switch (state, message) {
        case (.closed, _):
            return .none
        case (_, .ping):
            return .sendPong
        case (.awaitingInfo, .info(let info)):
            guard requiresTLS || info.tlsRequired else {
                state = .awaitingPong(info)
                return .sendConnect
            }
            guard info.tlsRequired || info.tlsAvailable else { return close(.tlsUnavailable) }
            state = .awaitingTLS(info)
            return .startTLS
        case (.awaitingPong(let info), .pong):
            state = .ready(info)
            return .ready(info)
        case (.awaitingPong, .error(let reason)):
            let lowered = reason.lowercased()
            return close(
                lowered.contains("authorization") || lowered.contains("authentication") ? .authorizationFailed(reason) : .server(reason))
        case (.ready, .info(let info)):
            state = .ready(info)
            return .updateInfo(info)
        case (.ready, .pong):
            pingsOutstanding = max(0, pingsOutstanding - 1)
            return .none
        case (.ready, .message(let message)):
            return .deliver(message)
        case (.ready, .error(let reason)):
            // The server keeps the connection after these two (docs.nats.io, "Client Protocol", -ERR).
            let lowered = reason.lowercased()
            if lowered.contains("invalid subject") || lowered.contains("permissions violation") { return .report(reason) }
            return close(lowered.contains("stale connection") ? .staleConnection : .server(reason))
        case (_, .ok):
            return .none
        case (.awaitingInfo, _), (.awaitingTLS, _), (.awaitingPong, _):
            return close(.malformed("\(message) before the handshake was done"))
        }
    }

    /// The TLS handshake is done: now the credentials, encrypted.
    public mutating func tlsEstablished() -> Action {
        guard case .awaitingTLS(let info) = state else { return .none }
        state = .awaitingPong(info)
        return .sendConnect
    }

    /// The TLS handshake failed (the certificate, or the server's answer).
    public mutating func tlsFailed(_ reason: String) -> Action {
        guard state != .closed else { return .none }
        return close(.tls(reason))
    }

    /// The ping timer fired.
    public mutating func pingTimerFired() -> Action {
        guard case .ready = state else { return .none }
        guard pingsOutstanding < maxPingsOutstanding else { return close(.staleConnection) }
        pingsOutstanding += 1
        return .sendPing
    }

    /// The handshake's time is up.
    public mutating func handshakeTimerFired() -> Action {
        switch state {
        case .awaitingInfo, .awaitingTLS, .awaitingPong: close(.handshakeTimedOut)
        case .ready, .closed: .none
        }
    }

    /// The bytes could not be decoded.
    public mutating func decodingFailed(_ error: NATSProtocolError) -> Action {
        guard state != .closed else { return .none }
        return close(error)
    }

    /// The channel closed.
    public mutating func channelClosed() {
        state = .closed
    }

    private mutating func close(_ error: NATSProtocolError) -> Action {
        state = .closed
        return .close(error)
    }
}
