import NIOConcurrencyHelpers
import NIOCore
import Prometheus

/// The connections of each client address that are not through their handshake yet, bounded per address
/// (``ServerConfiguration/Addresses/pendingConnections``): a connection counts from its accept until its first
/// request head is complete (the HTTP phase, which ``RequestHeadGuard`` bounds in time), and a WebSocket again
/// from its upgrade until its `welcome` or its close (the hello phase, which the hello timeout bounds). Past
/// the bound the address's new connections are closed as soon as accepted, and its new WebSockets as soon as
/// upgraded, so one client cannot hold hundreds of half-sent requests or silent sockets (and file
/// descriptors) while others cannot connect. A connection that its head timeout closes after sending part of
/// a head counts as a refused socket of its address too (``AddressRefusals``). A connection that sent nothing
/// (a browser's unused preconnect) is only counted while open.
///
/// Addresses of this host and of private networks are not counted unless
/// ``ServerConfiguration/Addresses/countsLocalAddresses`` (a proxy connects from one for all its clients).
final class PendingHandshakes: Sendable {
    private let counts = NIOLockedValueBox<[ClientAddress: Int]>([:])
    private let limit: Int
    private let countsLocalAddresses: Bool
    private let closedAtAccept: Counter

    /// - Parameter limit: Connections per address in the HTTP or the hello phase at once; 0 counts none.
    init(limit: Int, countsLocalAddresses: Bool, metrics: HubMetrics) {
        self.limit = limit
        self.countsLocalAddresses = countsLocalAddresses
        closedAtAccept = metrics.makeCounter(
            "connections_over_pending_limit",
            help: "Connections closed as soon as accepted or upgraded: their client address had too many not yet through their handshake."
        )
    }

    /// Counts a connection from `peer` entering a phase (accepted, or upgraded), unless its address is at the limit.
    /// - Returns: Whether it may be served (if not, it was not counted).
    func opened(_ peer: SocketAddress?) -> Bool {
        guard let client = counted(peer) else { return true }
        let admitted = counts.withLockedValue { counts in
            guard counts[client, default: 0] < limit else { return false }
            counts[client, default: 0] += 1
            return true
        }
        if !admitted { closedAtAccept.increment() }
        return admitted
    }

    /// A counted connection's phase ended: its first head is complete, its socket welcomed, or it closed.
    func ended(_ peer: SocketAddress?) {
        guard let client = counted(peer) else { return }
        counts.withLockedValue { counts in
            let left = counts[client, default: 1] - 1
            counts[client] = left > 0 ? left : nil
        }
    }

    private func counted(_ peer: SocketAddress?) -> ClientAddress? {
        limit > 0 ? ClientAddress.counted(peer, countingLocal: countsLocalAddresses) : nil
    }
}
