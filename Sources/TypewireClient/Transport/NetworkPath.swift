/// The device's network path as the client sees it: whether it reaches anything, and through which
/// interfaces, the preferred one first. On Apple platforms the client reads it from `NWPathMonitor`
/// (``TypewireClient/Configuration/followsNetworkPath``); elsewhere, or to drive it yourself, pass updates to
/// ``TypewireClient/networkPathUpdated(_:)``.
public struct NetworkPath: Sendable, Hashable {
    /// Whether the device can reach the network at all.
    public var isSatisfied: Bool
    /// The interfaces the path uses, the preferred one first (e.g. `["en0"]` on Wi-Fi, `["pdp_ip0"]` on
    /// cellular).
    public var interfaces: [String]
    /// The path's gateways (routers), as text: another Wi-Fi network keeps the interface (`en0`) but not its
    /// gateway.
    public var gateways: [String]

    /// Creates a path.
    public init(isSatisfied: Bool, interfaces: [String], gateways: [String] = []) {
        self.isSatisfied = isSatisfied
        self.interfaces = interfaces
        self.gateways = gateways
    }
}
