/// The device's network path as the client sees it: whether it reaches anything, and through which
/// interfaces, the preferred one first. On Apple platforms the client reads it from `NWPathMonitor`
/// (``Configuration/followsNetworkPath``); elsewhere, or to drive it yourself, pass updates to
/// ``TypewireClient/networkPathUpdated(_:)``.
public struct NetworkPath: Sendable, Hashable {
    /// Whether the device can reach the network at all.
    public var isSatisfied: Bool
    /// The interfaces the path uses, the preferred one first (e.g. `["en0"]` on Wi-Fi, `["pdp_ip0"]` on
    /// cellular).
    public var interfaces: [String]

    /// Creates a path.
    public init(isSatisfied: Bool, interfaces: [String]) {
        self.isSatisfied = isSatisfied
        self.interfaces = interfaces
    }
}

/// What the path's updates mean for the socket: connect again at once when the network comes back, or
/// when the preferred interface changes (Wi-Fi to cellular: the old socket may be dead without a word).
/// The first update only says where things stand; a path that is lost changes nothing (there is nothing to
/// reconnect over; the pings notice the dead socket).
struct NetworkPathWatch: Sendable {
    private var last: NetworkPath?

    /// Takes the next update. - Returns: Whether to drop the socket and connect again now.
    mutating func update(_ path: NetworkPath) -> Bool {
        defer { last = path }
        guard let last, path.isSatisfied else { return false }
        return !last.isSatisfied || last.interfaces.first != path.interfaces.first
    }
}
