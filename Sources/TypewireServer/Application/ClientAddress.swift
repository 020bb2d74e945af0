import NIOCore

/// The client a connection comes from, as the server counts refusals per client: an IPv4 address, or the
/// /64 prefix of an IPv6 address (what one host or one customer's network usually gets, so that one client
/// cannot count as 2^64 clients).
struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    private enum Value: Hashable {
        case v4(UInt32)
        case v6(prefix: UInt64)
    }

    private let value: Value

    /// The client of a peer's address; nil for a Unix domain socket.
    init?(_ address: SocketAddress) {
        switch address {
        case .v4(let address):
            value = .v4(UInt32(bigEndian: address.address.sin_addr.s_addr))
        case .v6(let address):
            var raw = address.address.sin6_addr
            let bytes = withUnsafeBytes(of: &raw) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {  // ::ffff:a.b.c.d
                value = .v4(bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) })
            } else {
                value = .v6(prefix: bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) })
            }
        case .unixDomainSocket:
            return nil
        }
    }

    /// The client of a connection from `peer` as a per-address budget counts it: nil for no address (a Unix
    /// socket), and for a local or private one unless `countingLocal` (a proxy connects from one for all its
    /// clients).
    static func counted(_ peer: SocketAddress?, countingLocal: Bool) -> ClientAddress? {
        guard let client = peer.flatMap(ClientAddress.init), countingLocal || !client.isLocal else { return nil }
        return client
    }

    /// Whether the address is one of this host or of a private network: loopback, RFC 1918, shared
    /// (100.64/10), link-local, IPv6 unique-local and link-local. A proxy or a load balancer in front of the
    /// server connects from such an address, on behalf of all its clients.
    var isLocal: Bool {
        switch value {
        case .v4(let address):
            return Self.localIPv4Networks.contains { network, bits in address >> (32 - bits) == network >> (32 - bits) }
        case .v6(let prefix):
            return prefix == 0  // ::1, ::
                || prefix >> 57 == 0xFC >> 1  // fc00::/7
                || prefix >> 54 == 0xFE80 >> 6  // fe80::/10
        }
    }

    /// Loopback, 10/8, 172.16/12, 192.168/16, 100.64/10 and 169.254/16, as (network, prefix length).
    private static let localIPv4Networks: [(UInt32, Int)] = [
        (0x7F00_0000, 8), (0x0A00_0000, 8), (0xAC10_0000, 12), (0xC0A8_0000, 16), (0x6440_0000, 10), (0xA9FE_0000, 16),
    ]

    var description: String {
        switch value {
        case .v4(let address):
            return (0..<4).map { (index: UInt32) -> String in String(address >> (24 - 8 * index) & 0xFF) }.joined(separator: ".")
        case .v6(let prefix):
            let groups = (0..<4).map { (index: UInt64) -> String in String(prefix >> (48 - 16 * index) & 0xFFFF, radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        }
    }
}
