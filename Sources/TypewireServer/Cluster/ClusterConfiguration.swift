import TypewireNATS

/// How a node takes part in a cluster: its heartbeats on the shared PostgreSQL, and the bus its events
/// travel on (PostgreSQL's LISTEN/NOTIFY, or NATS).
public struct ClusterConfiguration: Sendable {
    /// How often the node writes its heartbeat and looks for dead nodes. Default 1 s.
    public var heartbeatInterval: Duration
    /// How long without a heartbeat until a node counts as dead. Default 3 s.
    public var deadAfter: Duration
    /// The NATS servers the events travel through, routed by interest; nil: LISTEN/NOTIFY on the PostgreSQL
    /// the nodes share (docs/CLUSTER.md).
    public var nats: NATSClient.Configuration?

    /// Creates a configuration.
    public init(heartbeatInterval: Duration = .seconds(1), deadAfter: Duration = .seconds(3), nats: NATSClient.Configuration? = nil) {
        self.heartbeatInterval = heartbeatInterval
        self.deadAfter = deadAfter
        self.nats = nats
    }
}
