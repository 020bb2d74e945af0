import NIOCore
import Prometheus

/// Closes, as soon as they are accepted, the connections of a client whose sockets keep being refused:
/// a budget of refusals per client address (``ClientAddress``), ``ServerConfiguration/Addresses/refusals`` at
/// once and one more each second.
///
/// A socket counts as refused when it closes without having been welcomed (a refused or missing `hello`,
/// an oversize first frame, a handshake past its user's budget), unless the server was at fault (storage
/// unavailable, shutting down), and when it is closed for flooding. While a client's budget is spent, its
/// connections are closed at accept, with a reset, before any byte is read: a client reconnecting in a loop
/// costs the server an accept, not an HTTP parse, an upgrade and a `hello` each time. Sockets it already
/// has are not touched.
///
/// Addresses of this host and of private networks are not counted unless
/// ``ServerConfiguration/Addresses/countsLocalAddresses``: a proxy or a load balancer in front of the server connects
/// from one, on behalf of all its clients, and must limit connections per client itself.
final class AddressRefusals: Sendable {
    /// Refusals a client regains per second once its budget is spent.
    static let rate = 1.0

    private let budgets: SharedRateLimiters<ClientAddress>
    private let isOn: Bool
    private let countsLocalAddresses: Bool
    private let now: @Sendable () -> Int64
    private let closedAtAccept: Counter

    /// - Parameters:
    ///   - burst: Refusals per client before its connections are closed at accept; 0 counts none.
    ///   - countsLocalAddresses: Whether loopback and private addresses are counted too.
    ///   - now: The server's time in milliseconds.
    init(burst: Double, countsLocalAddresses: Bool, now: @escaping @Sendable () -> Int64, metrics: HubMetrics) {
        budgets = SharedRateLimiters(rate: Self.rate, burst: burst)
        isOn = burst > 0
        self.countsLocalAddresses = countsLocalAddresses
        self.now = now
        closedAtAccept = metrics.makeCounter(
            "connections_closed_at_accept",
            help: "Connections closed as soon as accepted: their client address's sockets kept being refused."
        )
    }

    /// Whether a connection from `peer` may be served; counts the ones that may not.
    func accepts(_ peer: SocketAddress?) -> Bool {
        guard let client = counted(peer), budgets.isSpent(client, now: now()) else { return true }
        closedAtAccept.increment()
        return false
    }

    /// Counts one refused socket of `peer`'s client.
    func refused(_ peer: SocketAddress?) {
        guard let client = counted(peer) else { return }
        _ = budgets.allow(client, now: now())
    }

    private func counted(_ peer: SocketAddress?) -> ClientAddress? {
        isOn ? ClientAddress.counted(peer, countingLocal: countsLocalAddresses) : nil
    }
}
