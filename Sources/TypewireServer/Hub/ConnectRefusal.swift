import TypewireCore

/// Why the hub turned away a socket whose `hello` was valid; the socket's services answer with an
/// `error` frame carrying ``code`` and ``message``, then closes the socket.
public struct ConnectRefusal: Error, CustomStringConvertible {
    /// The error code the client gets.
    public let code: ErrorCode
    /// What the client should do, in words.
    public let message: String
    /// Whether the client may connect again at once with backoff (the server's trouble) rather than
    /// only after changing something (its own).
    public let isTemporary: Bool

    /// Whether the server, not the client, is the reason (its storage, its shutdown): such a refusal does not
    /// count against the client's address (``AddressRefusals``).
    var isServersFault: Bool { code == .unavailable }

    /// The user already has as many sockets as allowed.
    static func tooManySockets(limit: Int) -> ConnectRefusal {
        ConnectRefusal(
            code: .forbidden, message: "This user already has \(limit) open sockets; close one first.", isTemporary: false
        )
    }

    /// The user opened sockets faster than ``ServerConfiguration/Budgets/handshakes``: the client connects
    /// again with its backoff.
    static func tooManyHandshakes(rate: Double) -> ConnectRefusal {
        ConnectRefusal(
            code: .rateLimited,
            message:
                "This user opened more than \(rate == rate.rounded() ? String(Int(rate)) : String(rate)) sockets a second; connect again shortly.",
            isTemporary: true
        )
    }

    /// The store could not be read or written for the handshake.
    static let storeUnavailable = ConnectRefusal(
        code: .unavailable, message: "The server cannot read its storage now; connect again shortly.", isTemporary: true
    )

    /// The server is shutting down: the client connects again with backoff (to this server's successor).
    static let shuttingDown = ConnectRefusal(
        code: .unavailable, message: "The server is shutting down; connect again shortly.", isTemporary: true
    )

    public var description: String { message }
}
