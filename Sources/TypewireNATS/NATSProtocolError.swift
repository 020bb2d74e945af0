/// Why a NATS connection failed or was closed; each case says what a person can do about it.
public enum NATSProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A line from the server that is not the protocol (the connection is closed).
    case malformed(String)
    /// A protocol line longer than the decoder accepts before its end.
    case controlLineTooLong(limit: Int)
    /// A message payload larger than the decoder accepts.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// The server refused the credentials (from the URL's user and password or token).
    case authorizationFailed(String)
    /// The URL says `tls://` and the server does not offer TLS.
    case tlsUnavailable
    /// The TLS handshake failed: the server's certificate was not trusted, or it did not speak TLS.
    case tls(String)
    /// The server sent `-ERR` and closed the connection.
    case server(String)
    /// The server did not answer pings.
    case staleConnection
    /// The server did not finish the handshake (`INFO`, then `PONG` after `CONNECT`) in time.
    case handshakeTimedOut

    public var description: String {
        switch self {
        case .malformed(let line):
            "The NATS server sent a line that is not the NATS protocol: '\(line.prefix(80))'. Is the URL a NATS server's?"
        case .controlLineTooLong(let limit): "The NATS server sent a protocol line longer than \(limit) bytes."
        case .payloadTooLarge(let bytes, let limit): "The NATS server sent a message of \(bytes) bytes, over this client's \(limit)."
        case .authorizationFailed(let reason):
            "The NATS server refused the credentials (\(reason)): check the user and password or token in --nats-url."
        case .tlsUnavailable: "The NATS server does not offer TLS, which the tls:// URL requires: configure TLS on it or use nats://."
        case .tls(let reason):
            "TLS with the NATS server failed (\(reason)): check that its certificate names the URL's host and chains to --nats-tls-ca (or the system's roots)."
        case .server(let reason): "The NATS server reported an error: \(reason)."
        case .staleConnection: "The NATS server stopped answering pings."
        case .handshakeTimedOut: "The NATS server did not complete the handshake in time."
        }
    }
}
